import { Injectable } from '@nestjs/common';
import type { Draft, DraftFields, DraftKind } from '@techit/contract/api-types';
import { LIMITS, PAGINATION } from '@techit/contract/limits';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../common/app-errors';
import { encodeCursor, withLookahead } from '../common/cursor';
import { newObjectId, parseObjectId } from '../common/object-id';
import { toPageRequest } from '../common/page-request';
import type { DraftRow, Executor } from '../database/database.types';
import type { CreateDraftDto, DraftFieldsDto, DraftListQueryDto, UpdateDraftDto } from './dto/draft-input.dto';
import { parseDraftFields, toDraft } from './drafts.mapper';
import { DraftsRepository } from './drafts.repository';

export interface DraftPage {
  drafts: Draft[];
  nextCursor: string | null;
}

/** Someone else's draft gets the same answer as a missing one: its existence is not revealed. */
const DRAFT_NOT_FOUND = "This draft doesn't exist";

const FIELDS_OF: Record<DraftKind, readonly (keyof DraftFields)[]> = {
  post: ['title', 'desc', 'body', 'category', 'link1', 'link2', 'pic', 'tags'],
  notice: ['desc', 'links'],
};
const DESC_MAX: Record<DraftKind, number> = { post: LIMITS.postDescMax, notice: LIMITS.noticeDescMax };

/**
 * Drafts: private to their owner, saved with optimistic locking (a save names the version it
 * started from), one edit draft per post and user. docs/decisions/026-drafts.md.
 */
@Injectable()
export class DraftsService {
  constructor(private readonly drafts: DraftsRepository) {}

  async create(me: AuthUser, input: CreateDraftDto): Promise<Draft> {
    const fields = draftFields(input.kind, input);
    let postId: string | null = null;
    if (input.postId !== undefined) {
      if (input.kind !== 'post') throw new BadRequestError('Only a post draft can belong to a post');
      postId = await this.requireEditablePost(me, input.postId);
      const existing = await this.drafts.findEditDraft(postId, me.id);
      if (existing) throw editDraftExists(existing);
    }
    const now = new Date();
    const id = newObjectId(now);
    try {
      await this.drafts.insert({
        id,
        user_id: me.id,
        kind: input.kind,
        post_id: postId,
        fields: JSON.stringify(fields),
        version: 1,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      });
    } catch (error) {
      // Two tabs opening the same post's edit page at once: the unique index decides.
      const existing = postId ? await this.drafts.findEditDraft(postId, me.id) : undefined;
      if (existing) throw editDraftExists(existing);
      throw error;
    }
    return this.get(me, id);
  }

  async get(me: AuthUser, rawId: string): Promise<Draft> {
    return toDraft(await this.requireOwn(me, rawId));
  }

  async list(me: AuthUser, query: DraftListQueryDto): Promise<DraftPage> {
    if (query.postId !== undefined) {
      const postId = parseObjectId(query.postId);
      const row = postId ? await this.drafts.findEditDraft(postId, me.id) : undefined;
      return { drafts: row ? [toDraft(row)] : [], nextCursor: null };
    }
    const request = toPageRequest(query, PAGINATION.listPageSize);
    const rows = await this.drafts.listOwn(me.id, withLookahead(request));
    const shown = rows.slice(0, request.limit);
    const last = shown[shown.length - 1];
    const nextCursor =
      rows.length > request.limit && last ? encodeCursor({ createdAt: last.updated_at, id: last.id }) : null;
    return { drafts: shown.map(toDraft), nextCursor };
  }

  /**
   * Replaces the draft's fields when `version` is the stored one, in one conditional UPDATE;
   * otherwise 409 with the stored draft, so the editor can offer to keep either.
   */
  async save(me: AuthUser, rawId: string, input: UpdateDraftDto): Promise<Draft> {
    const row = await this.requireOwn(me, rawId);
    const fields = draftFields(row.kind as DraftKind, input);
    const saved = await this.drafts.saveIfVersion(row.id, me.id, input.version, {
      fields: JSON.stringify(fields),
      updated_at: new Date().toISOString(),
    });
    if (saved) return toDraft(saved);
    const stored = await this.drafts.findOwn(row.id, me.id);
    // Deleted (in another tab) since it was read.
    if (!stored) throw new NotFoundError(DRAFT_NOT_FOUND);
    throw new ConflictError(
      `This draft was changed elsewhere (version ${stored.version} is stored; this save started from ${input.version})`,
      { extra: { draft: toDraft(stored) } },
    );
  }

  async delete(me: AuthUser, rawId: string): Promise<Draft> {
    const row = await this.requireOwn(me, rawId);
    if (!(await this.drafts.deleteOwn(row.id, me.id))) throw new NotFoundError(DRAFT_NOT_FOUND);
    return toDraft(row);
  }

  /**
   * After createpost, createnotice or editpost succeeded with `draftId`: the draft is deleted if it
   * is the caller's; an unknown or someone else's id changes nothing and is no error, because
   * publishing must never fail over a draft.
   */
  async discardPublished(me: AuthUser, rawDraftId: string | undefined, executor?: Executor): Promise<void> {
    const id = rawDraftId === undefined ? null : parseObjectId(rawDraftId);
    if (id) await this.drafts.deleteOwn(id, me.id, executor);
  }

  private async requireOwn(me: AuthUser, rawId: string): Promise<DraftRow> {
    const id = parseObjectId(rawId);
    const row = id ? await this.drafts.findOwn(id, me.id) : undefined;
    if (!row) throw new NotFoundError(DRAFT_NOT_FOUND);
    return row;
  }

  /** An edit draft is for a post its user may edit: only the author edits (posts.service.ts). */
  private async requireEditablePost(me: AuthUser, rawPostId: string): Promise<string> {
    const postId = parseObjectId(rawPostId);
    const author = postId ? await this.drafts.postAuthor(postId) : undefined;
    if (!postId || author === undefined) throw new NotFoundError("This post doesn't exist");
    if (author !== me.id)
      throw new ForbiddenError('Only the author can edit this post, so only they can draft an edit');
    return postId;
  }
}

function editDraftExists(existing: DraftRow): ConflictError {
  return new ConflictError('This post already has an edit draft; save to that one', {
    extra: { draft: toDraft(existing) },
  });
}

/** The fields sent, checked against the kind: only its own fields, a post's desc at its own limit. */
function draftFields(kind: DraftKind, input: DraftFieldsDto): DraftFields {
  const allowed = FIELDS_OF[kind];
  const fields: DraftFields = {};
  for (const name of ['title', 'desc', 'body', 'category', 'link1', 'link2', 'pic', 'tags', 'links'] as const) {
    const value = input[name];
    if (value === undefined) continue;
    if (!allowed.includes(name)) {
      throw new BadRequestError(`A ${kind} draft has no ${name}; it holds ${allowed.join(', ')}`);
    }
    Object.assign(fields, { [name]: value });
  }
  if (fields.desc !== undefined && fields.desc.length > DESC_MAX[kind]) {
    throw new BadRequestError(`desc must be at most ${DESC_MAX[kind]} characters in a ${kind} draft`);
  }
  return parseDraftFields(JSON.stringify(fields));
}
