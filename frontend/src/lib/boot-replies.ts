import { storage } from './storage';

declare global {
  interface Window {
    /** Set by the boot script (vite-plugins/route-preloads.ts): reply bodies by URL, null when not 2xx. */
    __techitBootReplies?: Record<string, Promise<unknown> | undefined>;
  }
}

/**
 * A visitor's first API replies are requested by the boot script while the app's code downloads
 * (app/first-requests.ts lists them; vite-plugins/route-preloads.ts makes the script). The first
 * call for one of those paths takes the reply over; every later call, and any call once the reply
 * turned out not to be a success, asks the server itself (features/…/api fall back to
 * lib/api-client.ts). The paths match because both sides build them with the same functions
 * (features/…/api/*-paths.ts).
 */
export async function takeBootReply<T>(path: string): Promise<T | null> {
  const replies = window.__techitBootReplies;
  const url = `/api${path}`;
  const reply = replies?.[url];
  if (!replies || !reply) return null;
  delete replies[url];
  // Fetched without a token: only a visitor's to take.
  if (storage.token()) return null;
  return (await reply) as T | null;
}
