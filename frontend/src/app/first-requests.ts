import { DEFAULT_FEED } from '@techit/contract/enums';
import type { RouteName, RouteParams, routes } from '../config/routes';
import { postPaths } from '../features/posts/api/post-paths';
import { userPaths } from '../features/users/api/user-paths';
import { tagPaths } from '../lib/tag-paths';

/** Where the page's likely largest picture is named: the first post of a list, or the post itself. */
export interface FirstPicture {
  /** Which of the screen's requests names it. */
  request: number;
  from: 'list' | 'post';
  /** The variant the page shows there (post-photo.tsx: full on the post's page, else the card). */
  variant: 'card' | 'full';
}

interface FirstRequests<Name extends RouteName> {
  /**
   * The API paths (without /api) the screen's default view (no ?feed= or ?tab=) requests first
   * for a visitor, built by the same functions the screen's fetchers use.
   */
  paths: (params: Record<RouteParams<(typeof routes)[Name]['path']>, string>) => string[];
  picture?: FirstPicture;
}

/**
 * A visitor's first API requests per screen. With no token they are the same for everyone, so
 * the boot script starts them from the first HTML, while the app's code is still downloading
 * (vite-plugins/route-preloads.ts reads this table at build time), and each fetcher takes its
 * reply over instead of asking again (lib/boot-replies.ts): the same URL, because both are made
 * by the feature's path functions. A signed-in viewer's replies carry their own likes, so theirs
 * start with the route's loader instead (route-prefetch.ts), through the same fetchers.
 *
 * No browser code here or in what it imports: the build runs it.
 */
export const firstRequests: { [Name in RouteName]?: FirstRequests<Name> } = {
  home: {
    paths: () => [postPaths.feedPage(DEFAULT_FEED, null), postPaths.topPosts()],
    picture: { request: 0, from: 'list', variant: 'card' },
  },
  post: {
    paths: ({ postid }) => [postPaths.post(postid)],
    picture: { request: 0, from: 'post', variant: 'full' },
  },
  profile: {
    paths: ({ userid }) => [userPaths.user(userid), postPaths.userPostsPage(userid, null)],
    picture: { request: 1, from: 'list', variant: 'card' },
  },
  tag: {
    paths: ({ name }) => [tagPaths.tag(name), postPaths.tagFeedPage(name, null)],
    picture: { request: 1, from: 'list', variant: 'card' },
  },
};
