import { UI } from '@techit/contract/limits';
import type { Modal, ModalFuncProps, notification } from 'antd';
import { type ComponentType, type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { deferredImport } from './deferred-import';

// Named through antd's public exports: its antd/es/* files are not part of its API.
type NotificationInstance = ReturnType<typeof notification.useNotification>[0];
type ModalInstance = ReturnType<typeof Modal.useModal>[0];

/** The themed toast and dialog instances that FeedbackHost hands over once it has loaded. */
export interface Feedback {
  notification: NotificationInstance;
  modal: ModalInstance;
}

let current: Feedback | null = null;
let waiting: Array<(feedback: Feedback) => void> = [];

/**
 * FeedbackHost hands its instances over when mounted (null when unmounted); calls made while there
 * are none wait for the next ones.
 */
export function provideFeedback(feedback: Feedback | null): void {
  current = feedback;
  if (!feedback) return;
  const queued = waiting;
  waiting = [];
  for (const show of queued) show(feedback);
}

// Toasts and dialogs are never part of the first paint, so their code (notification, modal) is a
// chunk of its own, fetched when someone starts using the page or the first toast or dialog is
// asked for.
const feedbackHost = deferredImport(() => import('./feedback-host'));

/**
 * Renders the holders of Ant Design's toasts and dialogs inside the router and the theme, so that
 * they are themed and can hold router links such as the 'Login Required!' toast's Login link.
 */
export function FeedbackHost() {
  const [Holders, setHolders] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    void feedbackHost.ready.then((module) => {
      if (live) setHolders(() => module.default);
    });
    return () => {
      live = false;
    };
  }, []);
  return Holders ? <Holders /> : null;
}

function withFeedback(show: (feedback: Feedback) => void): void {
  if (current) {
    show(current);
    return;
  }
  waiting.push(show);
  feedbackHost.load().catch((error: unknown) => console.error('Could not load the toasts and dialogs:', error));
}

/**
 * Bottom right (one of the spec's two readings), where a toast covers no page heading or action:
 * at the top right it hid the profile header's name and buttons, and on a phone the whole top of
 * the screen. On phones it sits above the bottom bar (feedback-host.css).
 */
const TOAST = { placement: 'bottomRight', duration: UI.toastAutoCloseMs / 1000, showProgress: false } as const;

/** The keys of the error toasts shown (or waiting to be) and not closed since. */
const openErrors = new Set<string>();

/** Toasts and alerts from anywhere, including the api-client, which lives outside React. */
export const notify = {
  /** `key` names the action that failed: the same key replaces its toast, and dismissError closes it. */
  error(title: string, description?: ReactNode, key?: string): void {
    if (key !== undefined) openErrors.add(key);
    withFeedback(({ notification }) => {
      // Dismissed while the toasts' code was still arriving: nothing to show any more.
      if (key !== undefined && !openErrors.has(key)) return;
      notification.error({
        ...TOAST,
        title,
        description,
        key,
        onClose: () => {
          if (key !== undefined) openErrors.delete(key);
        },
      });
    });
  },
  /**
   * Closes the error toast of an action that has now worked. Only when one is up: most successes
   * have none, and the toasts' code is not fetched for them.
   */
  dismissError(key: string): void {
    if (!openErrors.delete(key)) return;
    withFeedback(({ notification }) => notification.destroy(key));
  },
  /**
   * The server's rate limit said no (429): its message says when to try again. One toast however
   * many requests were refused at once (a repeated key replaces it).
   */
  slowDown(description: string): void {
    withFeedback(({ notification }) =>
      notification.warning({ ...TOAST, key: 'rate-limited', title: 'Slow down', description }),
    );
  },
  /** The spec's "Login Required!" toast, with a link to the login page. */
  loginRequired(description: string): void {
    withFeedback(({ notification }) =>
      notification.warning({
        ...TOAST,
        title: 'Login Required!',
        description: (
          <span>
            {description}. <Link to={paths.login}>Login</Link>
          </span>
        ),
      }),
    );
  },
  /**
   * The spec's success "alerts": short, polite, and gone by themselves; in the toasts' corner
   * (Ant Design's message would show at the top centre, over the page's heading).
   */
  success(text: string): void {
    withFeedback(({ notification }) => notification.success({ ...TOAST, title: text }));
  },
};

/** A toast's description with the server's own words on a line of their own (what to change). */
export function withReason(description: string, reason: string): ReactNode {
  return (
    <>
      {description}
      <br />
      {reason}
    </>
  );
}

/** A themed confirmation dialog (a real dialog, so keyboard users land in it and return from it). */
export function confirm(config: ModalFuncProps): void {
  withFeedback(({ modal }) => void modal.confirm(config));
}
