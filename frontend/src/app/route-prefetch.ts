import { HOME_FEEDS, DEFAULT_FEED } from '@techit/contract/enums';
import { imageVariant, type ImageVariant } from '@techit/contract/image-variants';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { bookmarksQuery } from '../features/posts/api/get-bookmarks';
import { feedPostsQuery } from '../features/posts/api/get-feed';
import { postQuery } from '../features/posts/api/get-post';
import { topPostsQuery } from '../features/posts/api/get-top-posts';
import { userPostsQuery } from '../features/posts/api/get-user-posts';
import { userQuery } from '../features/users/api/get-user';
import { preloadEditProfileMenu } from '../features/users/components/edit-profile-menu-lazy';
import { listPicturePost } from '@techit/contract/list-picture';
import { queryClient } from '../lib/query-client';
import { storage } from '../lib/storage';

/*
 * Route loaders (router.tsx attaches them by route name) that only warm the query cache: a page's
 * first requests start while its code is still downloading, instead of after it has arrived and
 * rendered. They prefetch the very query definitions the page uses (features/…/api), so the
 * page's own queries take over the same cache entries (fresh for the client's staleTime) by query
 * key and nothing is fetched twice. They never wait for data (the API never holds up navigation)
 * and never fail. For a visitor's first page the boot script has usually made these requests
 * already (app/first-requests.ts); the fetchers take those replies over.
 */

/**
 * The first card's picture (or the post's, on its page) is usually the page's largest paint: its
 * download starts as soon as the data names it, not after the page has rendered.
 */
function preloadPicture(url: string | undefined, variant: ImageVariant): void {
  if (!url) return;
  const { src } = imageVariant(url, variant);
  if ([...document.head.querySelectorAll('link[rel="preload"]')].some((link) => link.getAttribute('href') === src)) {
    return;
  }
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = src;
  link.fetchPriority = 'high';
  document.head.appendChild(link);
}

function viewerId(): string | null {
  return storage.token() ? (storage.user()?._id ?? null) : null;
}

export function prefetchHome({ request }: LoaderFunctionArgs): null {
  const asked = new URL(request.url).searchParams.get('feed');
  const feed = HOME_FEEDS.find((name) => name === asked) ?? DEFAULT_FEED;
  const viewer = viewerId();
  // The following and "Your tags" feeds need a viewer, as in the page itself.
  if ((feed !== 'following' && feed !== 'tags') || viewer) {
    const query = feedPostsQuery(feed, viewer);
    void queryClient
      .prefetchInfiniteQuery(query)
      .then(() =>
        preloadPicture(listPicturePost(queryClient.getQueryData(query.queryKey)?.pages[0]?.posts)?.photo, 'card'),
      );
  }
  void queryClient.prefetchQuery(topPostsQuery());
  return null;
}

export function prefetchPost({ params }: LoaderFunctionArgs): null {
  if (!params.postid) return null;
  const query = postQuery(params.postid);
  void queryClient
    .prefetchQuery(query)
    .then(() => preloadPicture(queryClient.getQueryData(query.queryKey)?.photo, 'full'));
  return null;
}

export function prefetchProfile({ params, request }: LoaderFunctionArgs): null | Promise<null> {
  const userId = params.userid;
  if (!userId) return null;
  void queryClient.prefetchQuery(userQuery(userId));
  // Only the owner sees the Edit Profile menu: on their own profile the page waits for its code,
  // as it did when that code was part of the page's chunk (a failure is the menu's own to show).
  const menu = userId === viewerId() ? preloadEditProfileMenu().catch(() => undefined) : null;
  if (new URL(request.url).searchParams.get('tab') !== 'notices') {
    const posts = userPostsQuery(userId);
    void queryClient
      .prefetchInfiniteQuery(posts)
      .then(() =>
        preloadPicture(listPicturePost(queryClient.getQueryData(posts.queryKey)?.pages[0]?.posts)?.photo, 'card'),
      );
  }
  return menu ? menu.then(() => null) : null;
}

/** The Bookmarks page (a signed-in reader's: a visitor is sent home, so nothing to start). */
export function prefetchBookmarks({ request }: LoaderFunctionArgs): null {
  const viewer = viewerId();
  if (!viewer) return null;
  const search = new URL(request.url).searchParams;
  void queryClient.prefetchInfiniteQuery(
    bookmarksQuery(search.get('q')?.trim() ?? '', search.get('tag')?.trim() ?? '', viewer),
  );
  return null;
}
