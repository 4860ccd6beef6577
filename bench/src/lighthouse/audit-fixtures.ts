import type { Me, SignInReply } from '@techit/contract/api-types';
import { type ApiReply, callApi, list, signUpAndIn } from '@techit/testkit/api-client';
import type { Landmarks } from './seeded-server';

/** A word of the seed's vocabulary (seed-text.ts): many posts match it, so the search page is a full one. */
export const SEARCH_WORD = 'typescript';

/**
 * A post with a Markdown body (issue 16) with what a technical post has and the seed's posts lack: fenced code
 * (highlighted by the server's Markdown renderer), a heading, a list and inline code.
 */
const CODE_POST = {
  title: 'Debouncing a search box in TypeScript',
  desc: 'A small helper that waits until the user stops typing before it asks the server.',
  body: [
    'Here it is:',
    '',
    '```ts',
    'export function debounce<A extends unknown[]>(run: (...args: A) => void, waitMs: number) {',
    '  let timer: ReturnType<typeof setTimeout> | undefined;',
    '  return (...args: A): void => {',
    '    clearTimeout(timer);',
    '    timer = setTimeout(() => run(...args), waitMs);',
    '  };',
    '}',
    '```',
    '',
    '## Why not throttle?',
    '',
    '- `throttle` answers during typing, `debounce` once it stops;',
    '- a search box wants the last query, not every third one.',
    '',
    '```sql',
    "SELECT id, title FROM posts WHERE title LIKE 'debounce%' ORDER BY created_at DESC LIMIT 10;",
    '```',
  ].join('\n'),
};

/** Accounts that like and comment the reader's post, so the reader has notifications to list. */
const FANS = ['lhfan1', 'lhfan2', 'lhfan3'];

export interface AuditFixtures {
  /** The signed-in reader's session, as the web app stores it (lib/storage.ts). */
  reader: { token: string; user: Me };
  codePostId: string;
}

async function expectStatus(what: string, reply: Promise<ApiReply>, status: number): Promise<ApiReply> {
  const answered = await reply;
  if (answered.status !== status) throw new Error(`${what}: ${answered.status} ${answered.text.slice(0, 200)}`);
  return answered;
}

/**
 * What the seed does not write and the audited pages need, made through the API as members would:
 * the seeded sign-in user posts a post with code, three new members like and comment it (so the
 * reader has notifications), and the search word is checked to find posts.
 */
export async function prepareAuditFixtures(baseUrl: string, landmarks: Landmarks): Promise<AuditFixtures> {
  const signIn = await expectStatus(
    `sign-in of ${landmarks.signInUserName}`,
    callApi(baseUrl, 'POST', '/api/signin', {
      json: { userName: landmarks.signInUserName, password: landmarks.password },
    }),
    200,
  );
  const { token, user } = JSON.parse(signIn.text) as SignInReply;
  const created = await expectStatus(
    'the post with code',
    callApi(baseUrl, 'POST', '/api/createpost?view=compact', {
      token,
      json: { ...CODE_POST, tags: [landmarks.popularTag] },
    }),
    201,
  );
  const codePostId = (JSON.parse(created.text) as { post: { _id: string } }).post._id;
  for (const name of FANS) {
    const fan = await signUpAndIn(baseUrl, { userName: name });
    await expectStatus(
      `${name}'s like`,
      callApi(baseUrl, 'PUT', '/api/like?view=compact', { token: fan.token, json: { postId: codePostId } }),
      200,
    );
    await expectStatus(
      `${name}'s comment`,
      callApi(baseUrl, 'PUT', '/api/comment?view=compact', {
        token: fan.token,
        json: { postId: codePostId, text: `Thanks ${landmarks.signInUserName}, ${name} uses this in every form now.` },
      }),
      200,
    );
  }
  const notifications = await expectStatus(
    'the reader’s notifications',
    callApi(baseUrl, 'GET', '/api/notifications', { token }),
    200,
  );
  if (list(notifications.body, 'notifications').length === 0) throw new Error('The reader has no notifications');
  const search = await expectStatus(
    `search for ${SEARCH_WORD}`,
    callApi(baseUrl, 'GET', `/api/search?type=posts&q=${SEARCH_WORD}`),
    200,
  );
  if (list(search.body, 'results').length === 0) throw new Error(`Searching for ${SEARCH_WORD} finds no post`);
  return { reader: { token, user }, codePostId };
}
