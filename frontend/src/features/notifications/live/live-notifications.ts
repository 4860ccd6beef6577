import type { QueryClient } from '@tanstack/react-query';
import type { NotificationStreamEvent, UnreadCountReply } from '@techit/contract/api-types';
import { NOTIFICATIONS } from '@techit/contract/limits';
import { storage } from '../../../lib/storage';
import {
  notificationListQueryKey,
  putInOrder,
  setUnreadCount,
  unreadCountQuery,
  unreadCountQueryKey,
} from '../api/notification-cache';
import { notificationPaths } from '../api/notification-paths';
import { SseParser } from './sse-parser';

/** The first wait before reconnecting, unless the server's `retry:` says otherwise. */
const FIRST_RETRY_MS = 1_000;
/** Waits double after each failed attempt up to this. */
const MAX_RETRY_MS = 30_000;

/**
 * Whether this browser can read a fetch reply as it arrives (Response.body, a ReadableStream).
 * Without it the live client polls the unread count instead (docs/decisions/042).
 */
export function canStream(): boolean {
  return typeof ReadableStream === 'function' && typeof TextDecoder === 'function' && 'body' in Response.prototype;
}

/**
 * Keeps the bells' unread count and the cached list current for the signed-in user while the tab
 * is visible: Server-Sent Events read with fetch (so the login token goes in the Authorization
 * header, never in a URL), reconnecting with Last-Event-ID after a growing wait; when the tab is
 * hidden it closes the stream (or stops polling) and catches up when the tab comes back; without
 * streaming fetch it asks for the unread count every NOTIFICATIONS.pollSeconds. Returns stop.
 */
export function startLiveNotifications(queryClient: QueryClient): () => void {
  let mode: 'stream' | 'poll' = canStream() ? 'stream' : 'poll';
  let stopped = false;
  let controller: AbortController | null = null;
  let timer: number | undefined;
  let lastEventId = '';
  let serverRetryMs: number | null = null;
  let failures = 0;

  const clearTimer = () => {
    window.clearTimeout(timer);
    timer = undefined;
  };

  const pause = () => {
    clearTimer();
    controller?.abort();
    controller = null;
  };

  const resume = () => {
    if (stopped || document.hidden) return;
    if (mode === 'stream') void stream();
    else void poll();
  };

  const applyEvent = (event: NotificationStreamEvent) => {
    setUnreadCount(queryClient, event.unreadCount);
    // One that is new or changed goes where the list's order puts it; otherwise something was read or
    // withdrawn (or this is the first message of a connection): the list asks again if shown.
    if (event.notification) putInOrder(queryClient, event.notification);
    else void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
  };

  const reconnectLater = () => {
    if (stopped || document.hidden) return;
    const base = serverRetryMs ?? FIRST_RETRY_MS;
    const wait = Math.min(base * 2 ** failures, MAX_RETRY_MS);
    failures += 1;
    // Jitter, so that the clients of a restarted server do not all come back in the same instant.
    timer = window.setTimeout(resume, wait / 2 + Math.random() * (wait / 2));
  };

  async function stream(): Promise<void> {
    if (controller) return;
    clearTimer();
    const token = storage.token();
    if (!token) return;
    const own = new AbortController();
    controller = own;
    try {
      const headers: Record<string, string> = { Accept: 'text/event-stream', Authorization: `Bearer ${token}` };
      if (lastEventId) headers['Last-Event-ID'] = lastEventId;
      const response = await fetch(`/api${notificationPaths.stream}`, {
        headers,
        signal: own.signal,
        cache: 'no-store',
      });
      if (response.status === 401) {
        // The session has ended: the api-client's way of saying so (one toast, signed out) runs
        // on this request, and signing out stops this client.
        controller = null;
        void queryClient.refetchQueries({ queryKey: unreadCountQueryKey });
        return;
      }
      if (!response.body || (response.status >= 400 && response.status < 500 && response.status !== 429)) {
        // No stream here (a server or proxy that does not offer it): poll instead.
        await response.body?.cancel();
        controller = null;
        mode = 'poll';
        void poll();
        return;
      }
      if (!response.ok) throw new Error(`The notification stream answered ${response.status}`);
      const parser = new SseParser({
        event: (event) => {
          lastEventId = event.lastEventId;
          failures = 0;
          if (event.type !== 'notification') return;
          try {
            applyEvent(JSON.parse(event.data) as NotificationStreamEvent);
          } catch (error) {
            console.warn('A notification event could not be read:', error);
          }
        },
        retry: (ms) => {
          serverRetryMs = ms;
        },
      });
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
      // The server ended it (a restart, a graceful shutdown): come back, from the last event.
    } catch (error) {
      if (own.signal.aborted) return;
      console.warn('The notification stream broke off:', error);
    }
    if (controller === own) controller = null;
    reconnectLater();
  }

  async function poll(): Promise<void> {
    clearTimer();
    const before = queryClient.getQueryData<UnreadCountReply>(unreadCountQueryKey)?.unreadCount;
    try {
      const { unreadCount } = await queryClient.fetchQuery({ ...unreadCountQuery, staleTime: 0 });
      if (unreadCount !== before) void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
    } catch {
      // Logged by the query cache (lib/query-client.ts); the next poll tries again.
    }
    if (stopped || document.hidden || mode !== 'poll') return;
    clearTimer();
    timer = window.setTimeout(() => void poll(), NOTIFICATIONS.pollSeconds * 1000);
  }

  const onVisibilityChange = () => {
    if (document.hidden) {
      pause();
      return;
    }
    // Back: whatever happened meanwhile comes with the reconnected stream (Last-Event-ID and the
    // first message's count) or the first poll; the list, if shown, asks again.
    void queryClient.invalidateQueries({ queryKey: notificationListQueryKey });
    resume();
  };

  document.addEventListener('visibilitychange', onVisibilityChange);
  resume();
  return () => {
    stopped = true;
    pause();
    document.removeEventListener('visibilitychange', onVisibilityChange);
  };
}
