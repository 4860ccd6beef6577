import type { PostSearchResult, SearchReply } from '@techit/contract/api-types';
import {
  down as dropTitleKeys,
  up as addTitleKeys,
} from '../src/database/migrations/2026-11-29T06-00-00-post-title-key';
import { titleKey } from '../src/search/search-query.parser';
import { createPost, createUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * Search's exact-title step reads posts.title_key. Posts written before the column get theirs from
 * the migration, reduced as the app reduces a title (runs of letters and digits, lower-cased).
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const keysOf = async (ids: string[]) =>
  t.db.selectFrom('posts').select(['id', 'title', 'title_key']).where('id', 'in', ids).orderBy('id').execute();

it('gives the posts written before the column their keys, as the app would, and search finds their exact titles', async () => {
  const author = await createUser(t);
  const titles = [
    'Kubernetes: the Guide!',
    '«ÜBER» Straße — 2',
    'Ελληνικά και 日本語',
    '!!! ???',
    'async/await in Rust 1.75',
  ];
  const posts = [];
  for (const title of titles) posts.push(await createPost(t, author, { title, desc: 'x' }));
  const ids = posts.map((post) => post._id);
  const written = await keysOf(ids);
  expect(written.map((row) => row.title_key)).toEqual(written.map((row) => titleKey(row.title)));

  // As the database was before the column, then the migration again.
  await dropTitleKeys(t.db);
  await addTitleKeys(t.db);

  expect(await keysOf(ids)).toEqual(written);
  expect(written.find((row) => row.title === '«ÜBER» Straße — 2')?.title_key).toBe('über straße 2');
  const exact = await t.http.get('/api/search').query({ q: 'Über straße 2' }).expect(200);
  expect((exact.body as SearchReply<PostSearchResult>).results[0]?._id).toBe(posts[1]._id);
});
