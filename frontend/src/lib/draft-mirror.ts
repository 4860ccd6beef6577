import type { DraftFields, DraftKind } from '@techit/contract/api-types';

/**
 * The editor's copy of a draft in localStorage, written synchronously on every change, so a page
 * killed mid-typing (a crash, a closed laptop, a phone dropping the tab) loses nothing typed: the
 * server save comes up to ~2 s later. One slot per user, kind and post (a new post's editor
 * shares one slot: the draft being written now).
 */
export interface DraftMirror {
  /** The server draft these fields belong to; null before its first save reached the server. */
  draftId: string | null;
  /** The server version these fields were based on (what the next PUT sends). */
  version: number | null;
  fields: DraftFields;
  /** Changed since the server last had them: reopening, these win over the server's copy. */
  dirty: boolean;
}

const PREFIX = 'techit-draft';

export function draftMirrorKey(userId: string, kind: DraftKind, postId: string | null): string {
  return `${PREFIX}:${userId}:${kind}:${postId ?? 'new'}`;
}

export const draftMirror = {
  read(key: string): DraftMirror | null {
    try {
      const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<DraftMirror> | null;
      if (!stored || typeof stored.fields !== 'object' || stored.fields === null) return null;
      return {
        draftId: typeof stored.draftId === 'string' ? stored.draftId : null,
        version: typeof stored.version === 'number' ? stored.version : null,
        fields: stored.fields,
        dirty: stored.dirty === true,
      };
    } catch {
      return null;
    }
  },
  write(key: string, mirror: DraftMirror): void {
    try {
      localStorage.setItem(key, JSON.stringify(mirror));
    } catch {
      // Storage full or refused (private mode): the server save still runs.
    }
  },
  clear(key: string): void {
    localStorage.removeItem(key);
  },
};
