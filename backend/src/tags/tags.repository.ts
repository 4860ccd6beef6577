import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../database/database.tokens';
import type { Db, Executor, TagPrefsTable, TagsTable } from '../database/database.types';

export type TagRow = TagsTable;
export type TagPref = TagPrefsTable['kind'];

/** The only place that reads or writes tags, post_tags and tag_prefs (docs/decisions/032-tags.md). */
@Injectable()
export class TagsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  find(name: string, ex: Executor = this.db): Promise<TagRow | undefined> {
    return ex.selectFrom('tags').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Tags in use whose name starts with `prefix` (a normalised name, so no LIKE wildcard), most-used first. */
  suggest(prefix: string, limit: number, offset = 0): Promise<TagRow[]> {
    return this.db
      .selectFrom('tags')
      .selectAll()
      .where('posts_count', '>', 0)
      .$if(prefix !== '', (query) => query.where('name', 'like', `${prefix}%`))
      .orderBy('posts_count', 'desc')
      .orderBy('name')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** What the user does with each of these tags (absent: neither follows nor mutes). */
  async prefsOf(userId: string, names: string[], ex: Executor = this.db): Promise<Map<string, TagPref>> {
    if (names.length === 0) return new Map();
    const rows = await ex
      .selectFrom('tag_prefs')
      .select(['tag', 'kind'])
      .where('user_id', '=', userId)
      .where('tag', 'in', names)
      .execute();
    return new Map(rows.map((row) => [row.tag, row.kind]));
  }

  /** Each post's tags in the author's order, in one statement (the primary key serves it). */
  async tagsOfPosts(postIds: string[], ex: Executor = this.db): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>();
    if (postIds.length === 0) return tags;
    const rows = await ex
      .selectFrom('post_tags')
      .select(['post_id', 'tag'])
      .where('post_id', 'in', postIds)
      .orderBy('post_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const list = tags.get(row.post_id);
      if (list) list.push(row.tag);
      else tags.set(row.post_id, [row.tag]);
    }
    return tags;
  }

  /**
   * Replaces a post's tags, moving each tag's posts_count in the same transaction: +1 for a tag
   * added (its row made on first use), −1 for one removed. `before` is the post's tags as read
   * under its lock (empty for a new post).
   */
  async setPostTags(
    post: { id: string; createdAt: string },
    before: readonly string[],
    after: readonly string[],
    ex: Executor,
  ): Promise<void> {
    const added = after.filter((tag) => !before.includes(tag));
    const removed = before.filter((tag) => !after.includes(tag));
    await this.ensure(added, ex);
    await this.adjustPosts(added, 1, ex);
    await this.adjustPosts(removed, -1, ex);
    if (before.length > 0) await ex.deleteFrom('post_tags').where('post_id', '=', post.id).execute();
    if (after.length > 0)
      await ex
        .insertInto('post_tags')
        .values(after.map((tag, position) => ({ post_id: post.id, tag, position, created_at: post.createdAt })))
        .execute();
  }

  /** Before a post goes (its post_tags cascade with it): its tags count one post fewer. */
  async releasePostTags(postId: string, ex: Executor): Promise<void> {
    const tags = (await this.tagsOfPosts([postId], ex)).get(postId) ?? [];
    await this.adjustPosts(tags, -1, ex);
  }

  /**
   * Sets what a user does with a tag (null: nothing) and moves followers_count when following
   * starts or stops, in the caller's transaction. Answers the tag's row as it now is.
   */
  async setPref(userId: string, name: string, pref: TagPref | null, ex: Executor): Promise<TagRow> {
    await this.ensure([name], ex);
    const current = await ex
      .selectFrom('tag_prefs')
      .select('kind')
      .where('user_id', '=', userId)
      .where('tag', '=', name)
      .executeTakeFirst();
    const was = current?.kind ?? null;
    if (was !== pref) {
      if (pref === null) {
        await ex.deleteFrom('tag_prefs').where('user_id', '=', userId).where('tag', '=', name).execute();
      } else {
        await ex
          .insertInto('tag_prefs')
          .values({ user_id: userId, tag: name, kind: pref, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.columns(['user_id', 'tag']).doUpdateSet({ kind: pref }))
          .execute();
      }
      const delta = (pref === 'follow' ? 1 : 0) - (was === 'follow' ? 1 : 0);
      if (delta !== 0)
        await ex
          .updateTable('tags')
          .set((eb) => ({ followers_count: eb('followers_count', '+', delta) }))
          .where('name', '=', name)
          .execute();
    }
    return (await this.find(name, ex)) as TagRow;
  }

  /** Makes the rows of tags used or followed for the first time (counters at 0). */
  private async ensure(names: readonly string[], ex: Executor): Promise<void> {
    if (names.length === 0) return;
    await ex
      .insertInto('tags')
      .values(names.map((name) => ({ name, posts_count: 0, followers_count: 0 })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  private async adjustPosts(names: readonly string[], delta: 1 | -1, ex: Executor): Promise<void> {
    if (names.length === 0) return;
    await ex
      .updateTable('tags')
      .set((eb) => ({ posts_count: eb('posts_count', '+', delta) }))
      .where('name', 'in', [...names])
      .execute();
  }
}
