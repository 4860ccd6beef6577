import { Injectable } from '@nestjs/common';
import { ForbiddenError } from '../common/app-errors';
import type { Executor } from '../database/database.types';
import { BlocksRepository } from './blocks.repository';

/** Whom a write reaches: the owners of what it answers (each with its refusal) and whom it mentions. */
export interface Reach {
  /** The author of the post commented on, of the comment replied to, the user followed… */
  owners?: { userId: string; refusal: string }[];
  /** The users the text mentions (MarkdownService.renderWithMentions). */
  mentioned?: readonly string[];
}

/**
 * The block rule of every write that reaches someone (docs/decisions/048-blocks-and-mutes.md): a
 * user who is blocked cannot follow the blocker, comment on or reply to their writing, mention or
 * notify them. The write asks before it writes anything, inside its transaction when it has one,
 * and gets a 403 naming the reason; one statement however many people the write reaches.
 */
@Injectable()
export class BlockRules {
  constructor(private readonly blocks: BlocksRepository) {}

  async refuseBlocked(actorId: string, reach: Reach, ex?: Executor): Promise<void> {
    const owners = (reach.owners ?? []).filter((owner) => owner.userId !== actorId);
    const mentioned = (reach.mentioned ?? []).filter((userId) => userId !== actorId);
    const blockers = await this.blocks.blockersAmong(
      actorId,
      [...owners.map((owner) => owner.userId), ...mentioned],
      ex,
    );
    if (blockers.length === 0) return;
    const blocking = new Map(blockers.map((row) => [row.user_id, row.user_name]));
    const owner = owners.find((candidate) => blocking.has(candidate.userId));
    if (owner) throw new ForbiddenError(owner.refusal);
    const name = blocking.get(mentioned.find((userId) => blocking.has(userId)) ?? '');
    throw new ForbiddenError(`@${name ?? ''} has blocked you: you cannot mention them`);
  }
}

/** The refusals, one sentence each, so every route says the same. */
export const BLOCKED = {
  follow: 'This user has blocked you: you cannot follow them',
  comment: "This post's author has blocked you: you cannot comment on it",
  reply: "This comment's author has blocked you: you cannot reply to it",
  like: "This post's author has blocked you: you cannot like it",
} as const;
