import { Injectable } from '@nestjs/common';
import type { BookmarkReply, BookmarksReply } from '@techit/contract/api-types';
import { BOOKMARKS } from '@techit/contract/limits';
import type { AuthUser } from '../auth/auth-user';
import { BadRequestError, NotFoundError } from '../common/app-errors';
import { decodeCursor, encodeCursor } from '../common/cursor';
import { parseObjectId } from '../common/object-id';
import { PostsService } from '../posts/posts.service';
import { SearchService } from '../search/search.service';
import { requireTagName } from '../tags/tags.service';
import { BookmarksRepository } from './bookmarks.repository';
import { toBookmarkedPost } from './bookmarks.mapper';
import type { BookmarksQueryDto } from './dto/bookmarks-query.dto';

const POST_NOT_FOUND = "This post doesn't exist";

/**
 * A reader's saved posts (docs/decisions/043-bookmarks.md): private to them, saved once, listed
 * newest saved first and searched within with the search feature's parser and index.
 */
@Injectable()
export class BookmarksService {
  constructor(
    private readonly bookmarks: BookmarksRepository,
    private readonly posts: PostsService,
    private readonly search: SearchService,
  ) {}

  /** Saving a saved post changes nothing (it keeps its place in the list). */
  async bookmark(me: AuthUser, rawPostId: string): Promise<BookmarkReply> {
    const postId = requirePostId(rawPostId);
    if ((await this.bookmarks.add(me.id, postId, new Date().toISOString())) === 'missing') {
      throw new NotFoundError(POST_NOT_FOUND);
    }
    return { _id: postId, bookmarked: true };
  }

  /** Taking back a bookmark that is not there changes nothing; an unknown post is still a 404. */
  async unbookmark(me: AuthUser, rawPostId: string): Promise<BookmarkReply> {
    const postId = requirePostId(rawPostId);
    if (!(await this.bookmarks.remove(me.id, postId)) && !(await this.bookmarks.postExists(postId))) {
      throw new NotFoundError(POST_NOT_FOUND);
    }
    return { _id: postId, bookmarked: false };
  }

  /**
   * A page of the reader's bookmarks, newest saved first, by a keyset on (saved at, post id): a
   * bookmark added between two pages lands above the first, so walking on never repeats or skips
   * one. `q` and `tag` narrow it (both at once too); the posts come compact, as the feeds carry them.
   */
  async list(me: AuthUser, query: BookmarksQueryDto): Promise<BookmarksReply> {
    const limit = query.limit ?? BOOKMARKS.defaultLimit;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const tag = query.tag === undefined ? undefined : requireTagName(query.tag);
    // A blank box is no search (the web app sends what is typed); anything else is a query.
    const q = query.q?.trim() ?? '';
    const matching = q === '' ? undefined : this.search.postsMatching(q);
    const rows = await this.bookmarks.page(me.id, { limit: limit + 1, after, tag, matching });
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    const nextCursor =
      rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.post_id }) : null;
    // Every post listed here is one the reader saved: no lookup needed to say so.
    const posts = await this.posts.compactPosts(
      shown.map((row) => row.post_id),
      me,
      { bookmarked: true },
    );
    const savedAt = new Map(shown.map((row) => [row.post_id, row.created_at]));
    return {
      // A post deleted since the page was picked is simply not there.
      posts: posts.map((post) => toBookmarkedPost(post, savedAt.get(post._id) ?? '')),
      nextCursor,
    };
  }
}

function requirePostId(raw: string): string {
  const id = parseObjectId(raw);
  if (!id) throw new BadRequestError('postId must be a post id (24 hexadecimal characters)');
  return id;
}
