import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';
import { notify, withReason } from './notify';

/**
 * The toast a failed query or mutation shows (the spec names one per call). The api-client has
 * already said what it says for every call: a 401 ends the session with 'Please login again', a
 * 429 shows 'Slow down'.
 */
export interface ErrorToast {
  title: string;
  description?: string;
  /** Failures this toast is not for: the screen shows them itself (a 404's empty state), or another toast already did. */
  except?: (error: ApiError) => boolean;
  /** Refusals whose reply's own words are added on a line of their own: they say what to change. */
  withReason?: (error: ApiError) => boolean;
  /**
   * Names the action, so that its next success closes this toast (a retry that worked leaves no
   * error beside its success) and a repeated failure replaces it. Defaults to the title and description.
   */
  key?: string;
}

/**
 * What a query's or mutation's `meta` may say about its failures. Without `errorToast` a failure
 * shows nothing (it is still logged): either it is not the user's business (top posts, which the
 * spec keeps on the console), or the screen shows it itself (an alert in a form, an empty state).
 */
export interface FailureMeta extends Record<string, unknown> {
  errorToast?: ErrorToast;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: FailureMeta;
    mutationMeta: FailureMeta;
  }
}

/** For `except` and `withReason`: the reply had one of these statuses. */
export const hasStatus =
  (...statuses: number[]) =>
  (error: ApiError): boolean =>
    statuses.includes(error.status);

/** For `withReason`: the reason is the whole message (a toast with a title and the server's words). */
export const everyFailure = (): boolean => true;

function toastKey(toast: ErrorToast): string {
  return toast.key ?? `${toast.title}\n${toast.description ?? ''}`;
}

/**
 * The one error policy of the web app: every failed query and mutation is logged here, and shows
 * the toast its `meta` names. No call site catches an error only to tell the user about it.
 */
function reportFailure(error: Error, meta: FailureMeta | undefined, what: string): void {
  // The spec's client logs every error; the api-client logs the reply, this says what it broke.
  console.warn(`${what} failed:`, error);
  const toast = meta?.errorToast;
  if (!toast) return;
  const reply = error instanceof ApiError ? error : null;
  if (reply && toast.except?.(reply)) return;
  const key = toastKey(toast);
  if (reply && toast.withReason?.(reply)) {
    notify.error(toast.title, toast.description ? withReason(toast.description, reply.message) : reply.message, key);
  } else {
    notify.error(toast.title, toast.description, key);
  }
}

/** The action worked: its earlier failure's toast, if one is still up, has nothing left to say. */
function reportSuccess(meta: FailureMeta | undefined): void {
  if (meta?.errorToast) notify.dismissError(toastKey(meta.errorToast));
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => reportFailure(error, query.meta, `Loading ${JSON.stringify(query.queryKey)}`),
    onSuccess: (_data, query) => reportSuccess(query.meta),
  }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => reportFailure(error, mutation.meta, 'A change'),
    onSuccess: (_data, _variables, _context, mutation) => reportSuccess(mutation.meta),
  }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change by asking again; a network blip might.
      retry: (failures, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failures < 2,
    },
    mutations: { retry: false },
  },
});
