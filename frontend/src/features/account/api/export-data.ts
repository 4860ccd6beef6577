import { useMutation } from '@tanstack/react-query';
import { ApiError, apiDownload } from '../../../lib/api-client';
import { everyFailure, hasStatus } from '../../../lib/query-client';
import { accountPaths } from './account-paths';

/** "after 14:05", or "after Fri 14:05" when that is not today. */
export function retryTime(seconds: number, now = new Date()): string {
  const at = new Date(now.getTime() + seconds * 1000);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString()
    ? time
    : `${at.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' })} ${time}`;
}

/**
 * Saves the file under `name` the way a link with `download` does: the browser's own download
 * (its progress, its folder), from an object URL that is let go once the click has been handled.
 */
function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL by the next task; revoking it later frees the Blob.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * POST /api/export: the ZIP of everything the user wrote (decision 049), saved under the name its
 * Content-Disposition gives. Once a day: a 429 says when the next one may be asked for.
 */
export function useExportData() {
  return useMutation({
    mutationFn: async () => {
      try {
        const file = await apiDownload(accountPaths.export, { method: 'POST' });
        saveFile(file.blob, file.fileName ?? 'techit-export.zip');
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 429) {
          const when =
            failure.retryAfterSeconds === null ? 'tomorrow' : `after ${retryTime(failure.retryAfterSeconds)}`;
          throw new ApiError(429, `You can download your data once a day — try again ${when}`);
        }
        throw failure;
      }
    },
    meta: { errorToast: { title: 'Could not download your data', withReason: everyFailure, except: hasStatus(401) } },
  });
}
