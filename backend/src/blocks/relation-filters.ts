import { type AliasableExpression, type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import type { Database } from '../database/database.types';

/**
 * THE "not muted by the reader" condition (docs/decisions/048-blocks-and-mutes.md): the user whose
 * id is `authorId` (a column, or any expression naming one) is not one `readerId` mutes. One NOT
 * EXISTS probing mutes' primary key (user_id, other_id): a few index reads per row shown, nothing
 * for a reader who mutes nobody. Every list that hides a muted user's writing uses it: the post
 * feeds through tags' notMutedBy (one condition per post: its tags and its author), search, the
 * notices list, and the comments' `muted` flag (mutedFlag below). Visitors never get it, so a
 * visitor's reply never depends on anyone's mutes (the read cache, decision 008).
 */
export function authorNotMutedBy(readerId: string, authorId: Expression<string>): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.not(eb.exists(mutedAuthor(readerId, authorId)));
}

/** The opposite, as a column a comment row carries: 1 (or true) when the reader mutes its author. */
export function mutedFlag(readerId: string, authorId: Expression<string>): AliasableExpression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.exists(mutedAuthor(readerId, authorId));
}

function mutedAuthor(readerId: string, authorId: Expression<string>) {
  const eb = expressionBuilder<Database, never>();
  return eb
    .selectFrom('mutes as reader_mute')
    .select(sql`1`.as('muted'))
    .where('reader_mute.user_id', '=', readerId)
    .where('reader_mute.other_id', '=', authorId);
}

/**
 * `ownerId` (a column: a post's author) does not block `actorId`: the guard a write folds into its
 * first statement (the like's counter update) so a blocked user's like changes nothing at no extra
 * statement. Probes blocks' primary key (user_id, other_id).
 */
export function notBlockingActor(ownerId: Expression<string>, actorId: string): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.not(
    eb.exists(
      eb
        .selectFrom('blocks as owner_block')
        .select(sql`1`.as('blocked'))
        .where('owner_block.user_id', '=', ownerId)
        .where('owner_block.other_id', '=', actorId),
    ),
  );
}
