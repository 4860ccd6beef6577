import { Injectable } from '@nestjs/common';
import type { Post } from '@techit/contract/api-types';
import { DEFAULT_FEED } from '@techit/contract/enums';
import { imageVariant } from '@techit/contract/image-variants';
import { OUTSIDE, PAGINATION } from '@techit/contract/limits';
import { listPicturePost } from '@techit/contract/list-picture';
import { AppError } from '../common/app-errors';
import { NoticesService } from '../notices/notices.service';
import { PostsService } from '../posts/posts.service';
import { TagsService } from '../tags/tags.service';
import { UsersService } from '../users/users.service';
import { cardVersion, drawCard, type CardInput } from './card-image';
import {
  homePage,
  noticesPage,
  notFoundPage,
  type PageImage,
  type PageParts,
  postPage,
  postPath,
  profilePage,
  profilePath,
  SITE_NAME,
  tagPage,
  tagPath,
} from './page-renderer';

/** Drawn cards kept in memory (about 20–40 KB each): the latest versions of the posts being shared. */
const CARDS_KEPT = 256;

export type CardReply = { kind: 'png'; body: Buffer } | { kind: 'moved'; path: string } | { kind: 'missing' };

/**
 * What the server-rendered pages show, read through the features' own services (the same reads,
 * and so the same statements, as the API's replies for a visitor): the page's parts, or the
 * not-found screen for an id that is malformed or names nothing.
 */
@Injectable()
export class PagesService {
  /** Least recently used first; a promise, so that a card asked for twice at once is drawn once. */
  private readonly cards = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly posts: PostsService,
    private readonly users: UsersService,
    private readonly tags: TagsService,
    private readonly notices: NoticesService,
  ) {}

  /** The default feed's first page, read as the app's first request for a visitor reads it. */
  async home(): Promise<PageParts> {
    const { posts } = await this.posts.feed(
      { feed: DEFAULT_FEED, limit: PAGINATION.feedPageSize, view: 'compact' },
      null,
    );
    const pictured = listPicturePost(posts);
    const card = pictured?.photo ? imageVariant(pictured.photo, 'card') : null;
    return homePage(posts, pictured && card && { postId: pictured._id, ...card });
  }

  async post(rawId: string): Promise<PageParts> {
    const post = await orMissing(() => this.posts.get(rawId, null, 'compact'));
    // A post the moderators removed is not found for a page's readers (decision 047).
    if (!post || post.removed) return notFoundPage('post', postPath(rawId));
    return postPage(post, this.postImage(post));
  }

  async profile(rawId: string): Promise<PageParts> {
    const found = await orMissing(() =>
      Promise.all([
        this.users.getProfile(rawId),
        this.posts.userPosts(rawId, { limit: OUTSIDE.profilePosts, view: 'compact' }, null),
      ]),
    );
    if (!found) return notFoundPage('user', profilePath(rawId));
    const [user, { posts }] = found;
    const avatar = user.pic ? { ...imageVariant(user.pic, 'avatar'), alt: user.userName } : null;
    return profilePage(
      user,
      posts,
      avatar && { url: avatar.src, width: avatar.width, height: avatar.height, alt: avatar.alt },
    );
  }

  async tag(rawName: string): Promise<PageParts> {
    const found = await orMissing(() =>
      Promise.all([
        this.tags.get(rawName, null),
        this.posts.feed({ feed: 'tag', tag: rawName, limit: OUTSIDE.profilePosts, view: 'compact' }, null),
      ]),
    );
    if (!found) return notFoundPage('tag', tagPath(rawName));
    return tagPage(found[0], found[1].posts);
  }

  async noticesPage(): Promise<PageParts> {
    const { notices } = await this.notices.all({});
    return noticesPage(notices);
  }

  /** The post's own picture, else its generated card (at a URL that changes with what is drawn on it). */
  private postImage(post: Post): PageImage {
    if (post.photo) {
      const full = imageVariant(post.photo, 'full');
      return { url: full.src, width: full.width, height: full.height, alt: post.title };
    }
    return {
      url: cardPath(post._id, cardVersion(cardOf(post))),
      ...OUTSIDE.cardImage,
      alt: `${post.title}, by ${post.postedBy.userName}`,
    };
  }

  /**
   * A post's card at `version`: drawn once per version and kept (an LRU); an older version
   * answers with the way to the current one, an unknown post with nothing.
   */
  async card(rawId: string, version: string): Promise<CardReply> {
    const key = `${rawId}/${version}`;
    const kept = this.cards.get(key);
    if (kept) {
      this.cards.delete(key);
      this.cards.set(key, kept);
      return { kind: 'png', body: await kept };
    }
    const post = await orMissing(() => this.posts.get(rawId, null, 'compact'));
    if (!post || post.removed) return { kind: 'missing' };
    const card = cardOf(post);
    const current = cardVersion(card);
    if (current !== version) return { kind: 'moved', path: cardPath(post._id, current) };
    const drawing = drawCard(card);
    this.cards.set(key, drawing);
    drawing.catch(() => this.cards.delete(key));
    for (const oldest of this.cards.keys()) {
      if (this.cards.size <= CARDS_KEPT) break;
      this.cards.delete(oldest);
    }
    return { kind: 'png', body: await drawing };
  }
}

function cardOf(post: Post): CardInput {
  return { title: post.title, author: post.postedBy.userName, site: SITE_NAME };
}

export function cardPath(postId: string, version: string): string {
  return `/cards/posts/${encodeURIComponent(postId)}/${version}.png`;
}

/**
 * The read's result, or null when the service refused the address as a client's mistake (404 for
 * an id naming nothing, 400 for a malformed id or tag name): all of them the page's not-found screen.
 */
async function orMissing<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}
