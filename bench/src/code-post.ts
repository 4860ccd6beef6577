import { field, list } from '@techit/testkit/api-client';
import { findCommentedPost } from './bench-readers';
import type { DataSet } from './data-set';
import { signInNames } from './write-load';

/** What marks the article as the bench's: its fenced code block starts with this line. */
const FENCE = '```ts';

/**
 * Issue 21's post page is "a post with a Markdown body and comments". Seeded posts have comments
 * but no article (the seed writes a summary only), so before the post-auth scenario the bench
 * gives one commented post this fixed article through the API, as its author would: signed in as
 * the author, `PUT /api/editpost/:id` with the post's own fields plus the body. Done once per
 * data set (a post whose body already has the fence is left alone); the post count does not
 * change, so a PostgreSQL data set stays reusable.
 */
export const CODE_POST_BODY = [
  '## Why the cache keeps the page, not the reader',
  '',
  'A page of the feed is the same for every reader but for **their own** state: whether they liked',
  'a post, saved it, or mute one of its tags. So the server keeps the `view=compact` page as bytes',
  'and adds the reader-dependent fields with one indexed lookup:',
  '',
  FENCE,
  'async function pageFor(reader: Reader, key: PageKey): Promise<Buffer> {',
  '  const page = cache.get(key) ?? (await renderPage(key));',
  '  const liked = await likes.ofReader(reader.id, page.postIds);',
  '  return page.withReaderState({ liked, bookmarked: await bookmarks.ofReader(reader.id, page.postIds) });',
  '}',
  '```',
  '',
  '- invalidate per key, not the whole cache, on a write;',
  '- keep the account check per request cheap (`token_version` is cached);',
  '- never show a reader state older than their own last write.',
  '',
  "> Correctness first: a reader never sees another reader's like.",
  '',
  'Run `npm run bench -- --only post-auth` to see what it costs.',
].join('\n');

export interface CodePost {
  id: string;
  /** Whether this run wrote the article (false: the data set already had it). */
  written: boolean;
}

export async function ensureCodePost(
  baseUrl: string,
  dataSet: DataSet,
  avoid: readonly string[],
): Promise<CodePost | string> {
  const id = await findCommentedPost(dataSet, avoid);
  if (!id) return 'no post with comments and a category in the data set';
  const reply = await fetch(`${baseUrl}/api/posts/${id}?view=compact`);
  if (!reply.ok) return `GET /api/posts/${id} answered ${reply.status}`;
  const post = field(await reply.json(), 'post');
  const body = field(post, 'body');
  if (typeof body === 'string' && body.includes(FENCE)) return { id, written: false };

  const authorName = field(field(post, 'postedBy'), 'userName');
  if (typeof authorName !== 'string') return `post ${id} names no author`;
  const [author] = await signInNames(baseUrl, dataSet.summary.password, [authorName]);
  if (!author) return `the author of post ${id} (${authorName}) could not sign in`;
  const edit = await fetch(`${baseUrl}/api/editpost/${id}?view=compact`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${author.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      title: field(post, 'title'),
      category: field(post, 'category'),
      desc: field(post, 'desc'),
      body: CODE_POST_BODY,
      tags: list(post, 'tags'),
      link1: field(post, 'link1'),
      link2: field(post, 'link2'),
    }),
  });
  if (!edit.ok) return `editing post ${id} answered ${edit.status}: ${(await edit.text()).slice(0, 160)}`;
  return { id, written: true };
}

/** The post-auth reply's own check: the post asked for, its article with the code, its comments. */
export function codePostProblem(reply: unknown, id: string): string | null {
  const post = field(reply, 'post');
  if (field(post, '_id') !== id) return 'not the post asked for';
  const body = field(post, 'body');
  if (typeof body !== 'string' || !body.includes(FENCE)) return 'the post has no Markdown body with code';
  const html = field(post, 'bodyHtml');
  if (typeof html !== 'string' || !html.includes('<code')) return 'the body was not rendered with its code';
  if (list(post, 'comments').length === 0) return 'the post carries no comments';
  return null;
}
