import type {
  Draft,
  DraftConflictReply,
  DraftFields,
  DraftKind,
  DraftListReply,
  DraftReply,
} from '@techit/contract/api-types';
import { PAGINATION } from '@techit/contract/limits';
import { ApiError, api } from './api-client';

/**
 * The drafts API (docs/decisions/026-drafts.md), shared by the post and notice editors (the
 * autosave in use-draft-autosave.ts) and the create page's list of drafts. Not a feature of its
 * own: both features use it and features never import each other.
 */

/** TanStack keys: the list the create page shows. */
export const draftKeys = {
  all: ['drafts'] as const,
  list: () => ['drafts', 'list'] as const,
};

/** Your drafts, most recently saved first: the first page is all the create page lists. */
export async function listDrafts(): Promise<Draft[]> {
  const reply = await api<DraftListReply>(`/drafts?limit=${PAGINATION.maxPageSize}`);
  return reply.drafts;
}

/** Your edit draft of a post, if any. */
export async function findEditDraft(postId: string): Promise<Draft | null> {
  const reply = await api<DraftListReply>(`/drafts?postId=${encodeURIComponent(postId)}`);
  return reply.drafts[0] ?? null;
}

/** One of your drafts; null when it is gone (published or discarded elsewhere). */
export async function getDraft(id: string): Promise<Draft | null> {
  try {
    return (await api<DraftReply>(`/drafts/${encodeURIComponent(id)}`)).draft;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export async function createDraft(kind: DraftKind, postId: string | null, fields: DraftFields): Promise<Draft> {
  const body = postId ? { kind, postId, ...fields } : { kind, ...fields };
  return (await api<DraftReply>('/drafts', { method: 'POST', body })).draft;
}

export async function saveDraft(id: string, version: number, fields: DraftFields): Promise<Draft> {
  return (await api<DraftReply>(`/drafts/${encodeURIComponent(id)}`, { method: 'PUT', body: { ...fields, version } }))
    .draft;
}

export async function deleteDraft(id: string): Promise<void> {
  try {
    await api<Draft>(`/drafts/${encodeURIComponent(id)}`, { method: 'DELETE' });
  } catch (error) {
    // Already gone (published or discarded in another tab): that is what was asked.
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
}

/** The stored draft a 409 carries (saved elsewhere since, or the post's edit draft that exists). */
export function conflictDraft(error: unknown): Draft | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const reply = error.reply as Partial<DraftConflictReply> | null;
  return reply?.draft && typeof reply.draft._id === 'string' ? reply.draft : null;
}

/** The title a list shows for a draft. */
export function draftTitle(draft: DraftFields): string {
  return draft.title?.trim() || 'Untitled';
}
