import type { SearchType } from '@techit/contract/api-types';
import { routeHref, routes } from './routes';

/** The addresses links are built from, never typed by hand: each is made from config/routes.ts. */
export const paths = {
  home: routes.home.path,
  following: `${routes.home.path}?feed=following`,
  hot: `${routes.home.path}?feed=hot`,
  /** "Your tags": the posts of the tags the signed-in user follows. */
  yourTags: `${routes.home.path}?feed=tags`,
  signup: routes.signup.path,
  login: routes.login.path,
  forgotPassword: routes.forgotPassword.path,
  createPost: routes.createPost.path,
  editPost: (postId: string) => routeHref(routes.editPost.path, { postid: postId }),
  profile: (userId: string) => routeHref(routes.profile.path, { userid: userId }),
  /** A profile opened on its Notice tab (app/routes/profile.tsx reads ?tab=notices). */
  profileNotices: (userId: string) => `${routeHref(routes.profile.path, { userid: userId })}?tab=notices`,
  /** The own profile opened on its Settings tab (the notification switches; app/routes/profile.tsx reads ?tab=settings). */
  profileSettings: (userId: string) => `${routeHref(routes.profile.path, { userid: userId })}?tab=settings`,
  /** The account's settings: password, email, data, blocks and mutes, deletion (and the notification switches). */
  settings: routes.settings.path,
  post: (postId: string) => routeHref(routes.post.path, { postid: postId }),
  /** One subthread of a post's comments ("Continue this thread"): the comment and its replies. */
  postThread: (postId: string, commentId: string) =>
    `${routeHref(routes.post.path, { postid: postId })}?thread=${encodeURIComponent(commentId)}`,
  postHistory: (postId: string) => routeHref(routes.postHistory.path, { postid: postId }),
  tag: (name: string) => routeHref(routes.tag.path, { name }),
  notices: routes.notices.path,
  notifications: routes.notifications.path,
  /** The admin area; ?tab=users|log opens a tab other than the report queue. */
  admin: (tab: 'reports' | 'users' | 'log' = 'reports') =>
    tab === 'reports' ? routes.admin.path : `${routes.admin.path}?tab=${tab}`,
  moderationLog: routes.moderationLog.path,
  /** /bookmarks[?q=…][&tag=…]: the signed-in reader's saved posts, searched and filtered by tag. */
  bookmarks: (q = '', tag = '') => {
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    if (tag) query.set('tag', tag);
    const text = query.toString();
    return text ? `${routes.bookmarks.path}?${text}` : routes.bookmarks.path;
  },
  /** /search?q=…&type=…: the results page; no q, the page with the query language's hints. Posts is the default type. */
  search: (q = '', type: SearchType = 'posts') => {
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    if (type !== 'posts') query.set('type', type);
    const text = query.toString();
    return text ? `${routes.search.path}?${text}` : routes.search.path;
  },
} as const;

/** The element id of a comment on the post page: the target of its permalink. */
export function commentElementId(commentId: string): string {
  return `comment-${commentId}`;
}

/** A comment's permalink, /posts/:id#comment-:cid: the post page opens with that comment in view. */
export function commentPath(postId: string, commentId: string): string {
  return `${paths.post(postId)}#${commentElementId(commentId)}`;
}
