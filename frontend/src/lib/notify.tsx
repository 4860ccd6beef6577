import { UI } from '@techit/contract/limits';
import { App } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../config/paths';

/**
 * Toasts and alerts from anywhere, including the api-client, which lives outside React. The
 * bridge below hands it the themed instances of Ant Design's App.
 */
let notification: NotificationInstance | null = null;
let message: MessageInstance | null = null;

export function NotifyBridge(): null {
  const app = App.useApp();
  useEffect(() => {
    notification = app.notification;
    message = app.message;
  }, [app]);
  return null;
}

const TOAST = { placement: 'topRight', duration: UI.toastAutoCloseMs / 1000, showProgress: false } as const;

export const notify = {
  error(title: string, description?: ReactNode): void {
    notification?.error({ ...TOAST, title, description });
  },
  /** The spec's "Login Required!" toast, with a link to the login page. */
  loginRequired(description: string): void {
    notification?.warning({
      ...TOAST,
      title: 'Login Required!',
      description: (
        <span>
          {description}. <Link to={paths.login}>Login</Link>
        </span>
      ),
    });
  },
  /** The spec's success "alerts": short, polite, and gone by themselves. */
  success(text: string): void {
    void message?.success({ content: text, duration: UI.toastAutoCloseMs / 1000 });
  },
};
