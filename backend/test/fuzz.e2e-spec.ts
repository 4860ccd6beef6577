import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import sharp from 'sharp';
import { CATEGORIES, REPORT_REASONS, REPORT_TARGET_KINDS, ROLES, THEMES } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import {
  authorization,
  contentType,
  hostileBody,
  hostileId,
  hostileMultipart,
  hostileQuery,
  hostileString,
  idValue,
  jsonValue,
  percentEncode,
  POLLUTION_BODIES,
} from './support/fuzz-arbitraries';
import { expectPrototypesClean, expectSafeReply, FuzzClient, type RawReply } from './support/fuzz-http';
import { createDraft } from './support/draft-factories';
import { createNotice, createPost, createUser, makeAdmin, makeModerator, type TestUser } from './support/factories';
import { snapshot, startTestApp, type TestApp } from './support/test-app';
import { API_ROUTES } from './support/api-routes';

/**
 * Every endpoint gets random and hostile input, as a visitor and with a valid token, through a
 * real socket. The property (support/fuzz-http.ts): 2xx or 4xx, never 5xx; a 4xx is exactly
 * { error }; no hang; a refused request changes no row; no prototype is polluted.
 *
 * FUZZ_SEED=<n> replays a failure (fast-check prints the seed and path); FUZZ_RUNS=<n> changes
 * the runs per family (default 30).
 */
const SEED = process.env.FUZZ_SEED === undefined ? {} : { seed: Number(process.env.FUZZ_SEED) };
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Each documented operation also gets a generic sweep of this many runs. */
const SWEEP_RUNS = Math.max(5, Math.round(RUNS / 5));
const FAMILY_TIMEOUT_MS = 90_000;

/** With FUZZ_STATS=1, the statuses each test got are printed at the end: how deep the input reached. */
const statusesByTest: Record<string, Record<number, number>> = {};
function tally(status: number): void {
  const counts = (statusesByTest[expect.getState().currentTestName ?? ''] ??= {});
  counts[status] = (counts[status] ?? 0) + 1;
}

function check<T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<unknown>, numRuns = RUNS): Promise<void> {
  return fc.assert(
    fc.asyncProperty(arbitrary, async (value) => {
      await run(value);
    }),
    { numRuns, ...SEED },
  );
}

const json = (value: unknown) => JSON.stringify(value);
const text = (maxLength: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength }).map(json);
const pictures = fc.constantFrom(
  '',
  'https://example.com/a.png',
  '/uploads/0123456789abcdef01234567-10x10.webp',
  DEFAULT_PROFILE_PIC,
  'javascript:alert(1)',
);
const links = fc.constantFrom('', 'https://example.com/code', 'http://example.org/demo?x=1');
/** A post's tags: good, bad, too many, too long, not a list, not texts. */
const tagLists = fc
  .oneof(
    fc.array(fc.oneof(fc.constantFrom('#Go', 'web-dev', 'a'.repeat(31), '', '#', '-x', 'ünï'), hostileString), {
      maxLength: 6,
    }),
    hostileString,
    fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.object()), { maxLength: 3 }),
  )
  .map(json);

describe('fuzzing every endpoint with hostile input', () => {
  let t: TestApp;
  let client: FuzzClient;
  let me: TestUser;
  let other: TestUser;
  /** Works the report queue (its families never suspend anyone: the other families need their sessions). */
  let moderator: TestUser;
  let admin: TestUser;
  /** Every kind of id this database holds: users, posts, notices and comments, mine and another user's. */
  let realIds: string[];
  let myPostId: string;
  let otherPostId: string;
  let commentIds: string[];
  let cursors: string[];
  /** Drafts of mine and of another user (the others' answer 404). */
  let draftIds: string[];

  beforeAll(async () => {
    t = await startTestApp();
    client = await FuzzClient.listen(t);
    me = await createUser(t);
    other = await createUser(t);
    moderator = await createUser(t);
    await makeModerator(t, moderator);
    admin = await createUser(t);
    await makeAdmin(t, admin);
    myPostId = (await createPost(t, me))._id;
    otherPostId = (await createPost(t, other))._id;
    const notices = [(await createNotice(t, me))._id, (await createNotice(t, other))._id];
    commentIds = [];
    for (const [author, postId] of [
      [other, myPostId],
      [me, otherPostId],
      [other, otherPostId],
    ] as const) {
      const reply = await t.http
        .put('/api/comment')
        .set('Authorization', author.auth)
        .send({ postId, text: 'A comment' })
        .expect(200);
      const comments = reply.body.comments as { _id: string; postedBy: { _id: string } }[];
      commentIds.push(comments.filter((comment) => comment.postedBy._id === author.id).pop()!._id);
    }
    realIds = [me.id, other.id, myPostId, otherPostId, ...notices, ...commentIds];
    draftIds = [
      (await createDraft(t, me, { title: 'Mine' }))._id,
      (await createDraft(t, me, { postId: myPostId }))._id,
      (await createDraft(t, other, { kind: 'notice', desc: 'Theirs' }))._id,
    ];
    cursors = [
      (await t.http.get('/api/posts?limit=1').expect(200)).body.nextCursor as string,
      (await t.http.get('/api/allnotices?limit=1').expect(200)).body.nextCursor as string,
    ];
  }, 60_000);

  afterAll(async () => {
    client?.close();
    await t?.close();
    expectPrototypesClean();
    if (process.env.FUZZ_STATS) console.log(JSON.stringify(statusesByTest, null, 1));
  });

  type Auth = string | undefined;

  async function send(
    method: string,
    path: string,
    auth: Auth,
    body?: string | Buffer,
    type?: string,
  ): Promise<RawReply> {
    const headers: Record<string, string> = {};
    if (auth !== undefined) headers.Authorization = auth;
    if (type !== undefined) headers['Content-Type'] = type;
    const reply = await expectSafeReply(t, client, { method, path, headers, body });
    tally(reply.status);
    return reply;
  }

  const asMe = () => authorization(me.auth, me.id, t.config.jwtSecret!);
  const bodyRequest = (fields: Record<string, fc.Arbitrary<string>>) =>
    fc.record({ auth: asMe(), body: hostileBody(fields), type: contentType });

  it(
    'never answers 5xx to hostile bodies on POST /api/signup',
    () =>
      check(
        fc.record({
          body: hostileBody({
            userName: fc.stringMatching(/^[A-Za-z0-9_.-]{3,30}$/).map(json),
            email: fc.emailAddress().map(json),
            password: fc.string({ minLength: 8, maxLength: 40 }).map(json),
            pic: pictures.map(json),
          }),
          type: contentType,
        }),
        ({ body, type }) => send('POST', '/api/signup', undefined, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/signin',
    () =>
      check(
        fc.record({
          body: hostileBody({
            userName: fc.constantFrom(me.userName, me.email, other.userName.toUpperCase(), 'nobody').map(json),
            password: fc.constantFrom(me.password, 'a wrong password').map(json),
          }),
          type: contentType,
        }),
        ({ body, type }) => send('POST', '/api/signin', undefined, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/password-reset and POST /api/password-reset/confirm',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/password-reset', '/api/password-reset/confirm'),
          body: hostileBody({
            email: fc.oneof(fc.constantFrom(me.email, me.email.toUpperCase()), fc.emailAddress()).map(json),
            token: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.string({ maxLength: 300 })).map(json),
            password: fc.string({ minLength: 8, maxLength: 40 }).map(json),
          }),
          type: contentType,
        }),
        ({ path, body, type }) => send('POST', path, undefined, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/createpost',
    () =>
      check(
        bodyRequest({
          title: text(80),
          desc: text(400),
          // The Markdown article: rendered on write, so hostile Markdown reaches the renderer here.
          body: text(2000),
          pic: pictures.map(json),
          category: fc.constantFrom('', ...CATEGORIES).map(json),
          tags: tagLists,
          link1: links.map(json),
          link2: links.map(json),
        }),
        ({ auth, body, type }) => send('POST', '/api/createpost', auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and bodies on PUT /api/editpost/:id',
    () =>
      check(
        fc.record({
          id: hostileId(realIds),
          auth: asMe(),
          body: hostileBody({
            title: text(80),
            desc: text(400),
            body: text(2000),
            category: fc.constantFrom(...CATEGORIES).map(json),
            tags: tagLists,
            link1: links.map(json),
            link2: links.map(json),
            pic: pictures.map(json),
          }),
          // The original client sends this one as text/plain.
          type: fc.oneof(contentType, fc.constant('text/plain;charset=UTF-8')),
        }),
        ({ id, auth, body, type }) => send('PUT', `/api/editpost/${id}`, auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/like and PUT /api/unlike',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/like', '/api/unlike'),
          request: bodyRequest({ postId: idValue(realIds) }),
        }),
        ({ path, request }) => send('PUT', path, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/bookmark and PUT /api/unbookmark',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/bookmark', '/api/unbookmark'),
          request: bodyRequest({ postId: idValue(realIds) }),
        }),
        ({ path, request }) => send('PUT', path, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/password, PUT /api/email and DELETE /api/account',
    () =>
      check(
        fc.oneof(
          fc.record({
            method: fc.constant('PUT' as const),
            path: fc.constant('/api/password'),
            request: bodyRequest({
              current: fc.string({ maxLength: 200 }).map(json),
              next: fc.string({ maxLength: 200 }).map(json),
            }),
          }),
          fc.record({
            method: fc.constant('PUT' as const),
            path: fc.constant('/api/email'),
            request: bodyRequest({
              password: fc.string({ maxLength: 200 }).map(json),
              email: fc.emailAddress().map(json),
            }),
          }),
          fc.record({
            method: fc.constant('DELETE' as const),
            path: fc.constant('/api/account'),
            request: bodyRequest({
              password: fc.string({ maxLength: 200 }).map(json),
              content: fc.constantFrom('delete', 'anonymise', 'x').map(json),
            }),
          }),
        ),
        ({ method, path, request }) => send(method, path, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings and search syntax on GET /api/bookmarks (q, tag, limit, cursor)',
    () =>
      check(
        fc.record({
          query: fc.oneof(
            hostileQuery(['q', 'tag', 'limit', 'cursor'], [...cursors, 'rust', '%23Go', '%22a%20b%22%20-c%20%40d']),
            fc
              .tuple(
                hostileString.filter((text) => text.length < 400),
                fc.constantFrom('', 'rust', '%23Rust', '-x'),
              )
              .map(([q, tag]) => `q=${percentEncode(q)}${tag ? `&tag=${tag}` : ''}`),
          ),
          auth: asMe(),
        }),
        ({ query, auth }) => send('GET', `/api/bookmarks?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/reports',
    () =>
      check(
        bodyRequest({
          targetKind: fc.constantFrom(...REPORT_TARGET_KINDS).map(json),
          targetId: idValue(realIds),
          reason: fc.constantFrom(...REPORT_REASONS).map(json),
          note: text(500),
        }),
        ({ auth, body, type }) => send('POST', '/api/reports', auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/block, /unblock, /mute and /unmute',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/block', '/api/unblock', '/api/mute', '/api/unmute'),
          request: bodyRequest({ userId: idValue(realIds) }),
        }),
        ({ path, request }) => send('PUT', path, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings on GET /api/reports and GET /api/moderation-log',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/reports', '/api/moderation-log'),
          query: hostileQuery(['status', 'cursor'], ['open', 'resolved', ...cursors]),
          auth: fc.oneof(asMe(), fc.constant(moderator.auth)),
        }),
        ({ path, query, auth }) => send('GET', `${path}?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings on GET /api/admin/users (q, cursor)',
    () =>
      check(
        fc.record({
          query: hostileQuery(['q', 'cursor'], [...cursors, 'user', '%25', '_', '%5C']),
          auth: fc.oneof(asMe(), fc.constant(moderator.auth)),
        }),
        ({ query, auth }) => send('GET', `/api/admin/users?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and bodies on POST /api/admin/users/:id/password-reset-link',
    () =>
      check(
        fc.record({
          id: hostileId(realIds),
          auth: fc.oneof(asMe(), fc.constant(admin.auth)),
          body: hostileBody({ reason: text(50) }),
          type: contentType,
        }),
        ({ id, auth, body, type }) => send('POST', `/api/admin/users/${id}/password-reset-link`, auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings on GET /api/blocks and GET /api/mutes (limit, cursor)',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/blocks', '/api/mutes'),
          query: hostileQuery(['limit', 'cursor'], cursors),
          auth: asMe(),
        }),
        ({ path, query, auth }) => send('GET', `${path}?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile kinds, ids and bodies on PUT /api/reports/:targetKind/:targetId/resolve',
    () =>
      check(
        fc.record({
          kind: fc.oneof(fc.constantFrom(...REPORT_TARGET_KINDS), hostileId(['post'])),
          id: hostileId(realIds),
          auth: fc.oneof(asMe(), fc.constant(moderator.auth)),
          // dismiss and remove only: a suspension would end the sessions the other families use.
          body: hostileBody({
            action: fc.constantFrom('dismiss', 'remove').map(json),
            reason: text(500),
            until: fc.constantFrom('"2999-01-01T00:00:00.000Z"', '"2001-01-01T00:00:00.000Z"', '"soon"', '1e309'),
          }),
          type: contentType,
        }),
        ({ kind, id, auth, body, type }) => send('PUT', `/api/reports/${kind}/${id}/resolve`, auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and bodies on PUT /api/admin/users/:id/role',
    () =>
      check(
        fc.record({
          id: hostileId(realIds),
          request: bodyRequest({ role: fc.constantFrom(...ROLES, 'member').map(json) }),
        }),
        ({ id, request }) => send('PUT', `/api/admin/users/${id}/role`, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and bodies on PUT /api/admin/users/:id/suspend and /unsuspend',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('suspend', 'unsuspend'),
          // Another user's id or a stranger's: a suspension of `me` or `other` would end the
          // sessions the other families use, and the member's own token is refused with 403.
          id: hostileId([moderator.id, '0123456789abcdef01234567']),
          request: bodyRequest({
            reason: text(500),
            until: fc.constantFrom('"2999-01-01T00:00:00.000Z"', '"2001-01-01T00:00:00.000Z"', '"soon"', '1e309'),
          }),
        }),
        ({ path, id, request }) =>
          send('PUT', `/api/admin/users/${id}/${path}`, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/comment',
    () =>
      check(
        bodyRequest({ postId: idValue(realIds), text: text(1000), parentId: idValue(commentIds) }),
        ({ auth, body, type }) => send('PUT', '/api/comment', auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and bodies on PUT /api/comment/:postId/:commentId',
    () =>
      check(
        fc.record({
          ids: fc.tuple(hostileId([myPostId, otherPostId]), hostileId(commentIds)),
          request: bodyRequest({ text: text(1000) }),
        }),
        ({ ids: [postId, commentId], request }) =>
          send('PUT', `/api/comment/${postId}/${commentId}`, request.auth, request.body, request.type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings on GET /api/posts/:id/comments (thread, limit, cursor)',
    () =>
      check(
        fc.record({
          postId: fc.constantFrom(myPostId, otherPostId),
          query: hostileQuery(['thread', 'limit', 'cursor'], [...commentIds, ...cursors]),
          auth: asMe(),
        }),
        ({ postId, query, auth }) => send('GET', `/api/posts/${postId}/comments?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/createnotice',
    () =>
      check(
        bodyRequest({
          desc: text(1000),
          tags: fc.array(fc.string({ maxLength: 30 }), { maxLength: 6 }).map(json),
          links: fc.array(fc.constantFrom('https://example.com', 'http://a.b/c', ''), { maxLength: 4 }).map(json),
        }),
        ({ auth, body, type }) => send('POST', '/api/createnotice', auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on POST /api/preview',
    () =>
      check(
        bodyRequest({
          markdown: text(2000),
          kind: fc.constantFrom('post', 'comment', 'notice', 'essay', '').map(json),
        }),
        ({ auth, body, type }) => send('POST', '/api/preview', auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/follow and PUT /api/unfollow',
    () =>
      check(
        fc.oneof(
          bodyRequest({ followId: idValue(realIds) }).map((request) => ({ path: '/api/follow', ...request })),
          bodyRequest({ unfollowId: idValue(realIds) }).map((request) => ({ path: '/api/unfollow', ...request })),
        ),
        ({ path, auth, body, type }) => send('PUT', path, auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies on PUT /api/updatepic, /api/bio, /api/position and /api/updatetheme',
    () =>
      check(
        fc.oneof(
          bodyRequest({ pic: pictures.map(json) }).map((request) => ({ path: '/api/updatepic', ...request })),
          bodyRequest({ bio: text(160) }).map((request) => ({ path: '/api/bio', ...request })),
          bodyRequest({ position: text(42) }).map((request) => ({ path: '/api/position', ...request })),
          bodyRequest({ theme: fc.constantFrom(...THEMES).map(json) }).map((request) => ({
            path: '/api/updatetheme',
            ...request,
          })),
        ),
        ({ path, auth, body, type }) => send('PUT', path, auth, body, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies and tokens on POST /api/export',
    () =>
      // The first accepted call streams the archive; every later one is the day's 429.
      check(
        fc.record({
          auth: asMe(),
          body: fc.option(hostileBody({}), { freq: 3 }),
          type: contentType,
        }),
        ({ auth, body, type }) => send('POST', '/api/export', auth, body ?? undefined, type),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile bodies and tokens on POST /api/logout-all',
    async () => {
      // A user of its own: a successful call revokes every token, so it signs in again after one.
      const user = await createUser(t);
      let auth = user.auth;
      await check(
        fc.record({
          forged: fc.option(authorization(user.auth, user.id, t.config.jwtSecret!), { freq: 2 }),
          body: fc.option(hostileBody({}), { freq: 3 }),
          type: contentType,
        }),
        async ({ forged, body, type }) => {
          const reply = await send('POST', '/api/logout-all', forged === null ? auth : forged, body ?? undefined, type);
          if (reply.status < 300) {
            const signIn = await t.http.post('/api/signin').send({ userName: user.userName, password: user.password });
            auth = `Bearer ${signIn.body.token as string}`;
          }
        },
      );
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile queries, bodies and tokens on the notification routes',
    async () => {
      const notificationIds = (
        await t.http.get('/api/notifications').set('Authorization', me.auth).expect(200)
      ).body.notifications.map((n: { _id: string }) => n._id) as string[];
      const ids = notificationIds.length > 0 ? notificationIds : realIds;
      const flag = fc.constantFrom(true, false, 'true', 0, 1, null).map(json);
      await check(
        fc.oneof(
          fc
            .record({ query: hostileQuery(['limit', 'cursor'], cursors), auth: asMe() })
            .map(({ query, auth }) => ({ method: 'GET', path: `/api/notifications?${query}`, auth, body: undefined })),
          fc
            .record({
              path: fc.constantFrom('/api/notifications/unread-count', '/api/notification-settings'),
              auth: asMe(),
            })
            .map(({ path, auth }) => ({ method: 'GET', path, auth, body: undefined })),
          bodyRequest({ ids: fc.array(idValue(ids), { maxLength: 3 }).map(json), all: flag }).map((request) => ({
            method: 'PUT',
            path: '/api/notifications/read',
            ...request,
          })),
          bodyRequest({ like: flag, comment: flag, reply: flag, mention: flag, follow: flag, likes: flag }).map(
            (request) => ({ method: 'PUT', path: '/api/notification-settings', ...request }),
          ),
          fc.record({ auth: asMe(), body: fc.option(hostileBody({}), { freq: 3 }) }).map(({ auth, body }) => ({
            method: 'POST',
            path: '/api/notifications/stream-ticket',
            auth,
            body: body ?? undefined,
          })),
          fc
            .record({ query: hostileQuery(['prefix', 'limit'], ['@us', 'user', 'ü%', '_']), auth: asMe() })
            .map(({ query, auth }) => ({ method: 'GET', path: `/api/users/suggest?${query}`, auth, body: undefined })),
        ),
        ({
          method,
          path,
          auth,
          body,
          type,
        }: {
          method: string;
          path: string;
          auth: Auth;
          body?: string;
          type?: string;
        }) => send(method, path, auth, body, type),
      );
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx on GET /api/notifications/stream (hostile tickets, Last-Event-IDs, tokens in the URL)',
    async () => {
      const tickets: string[] = [];
      for (let i = 0; i < 3; i++)
        tickets.push(
          (await t.http.post('/api/notifications/stream-ticket').set('Authorization', me.auth).expect(200)).body
            .ticket as string,
        );
      await check(
        fc.record({
          query: hostileQuery(['ticket', 'lastEventId', 'token', 'access_token'], [...tickets, ...cursors]),
          lastEventId: fc.option(fc.oneof(fc.constantFrom(...cursors), hostileString), { freq: 2 }),
          auth: fc.option(asMe(), { freq: 2 }),
        }),
        async ({ query, lastEventId, auth }) => {
          const headers: Record<string, string> = {};
          if (auth) headers.Authorization = auth;
          if (lastEventId !== null && /^[\x20-\x7e]*$/.test(lastEventId)) headers['Last-Event-ID'] = lastEventId;
          tally(
            (await expectSafeReply(t, client, { method: 'GET', path: `/api/notifications/stream?${query}`, headers }))
              .status,
          );
        },
      );
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings on GET /api/posts',
    () =>
      check(
        fc.record({
          query: hostileQuery(
            ['page', 'limit', 'cursor', 'feed', 'userId', 'tag'],
            [...cursors, ...realIds, 'tag', 'tags', 'go', '#Go'],
          ),
          auth: asMe(),
        }),
        ({ query, auth }) => send('GET', `/api/posts?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids, bodies and query strings on /api/drafts and /api/drafts/:id',
    () => {
      const fields = {
        title: text(80),
        desc: text(1000),
        body: text(2000),
        category: fc.constantFrom('', ...CATEGORIES).map(json),
        link1: links.map(json),
        link2: links.map(json),
        pic: pictures.map(json),
        links: fc.array(fc.constantFrom('https://example.com', 'htt', ''), { maxLength: 4 }).map(json),
      };
      const version = fc
        .oneof(fc.integer({ min: -2, max: 5 }), fc.constantFrom(2 ** 31, 2 ** 53, 1e20, 1.5, -0))
        .map(json);
      // Mostly real drafts, so saves get past the lookup to the version check.
      const id = fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...draftIds) },
        { weight: 1, arbitrary: hostileId([...draftIds, ...realIds]) },
      );
      return check(
        fc.oneof(
          bodyRequest({
            kind: fc.constantFrom('post', 'notice').map(json),
            postId: fc.constantFrom(myPostId, otherPostId, 'nonsense').map(json),
            ...fields,
          }).map((request) => ({ method: 'POST', path: '/api/drafts', ...request })),
          fc
            .tuple(id, bodyRequest({ version, ...fields }))
            .map(([draftId, request]) => ({ method: 'PUT', path: `/api/drafts/${draftId}`, ...request })),
          fc
            .record({
              query: hostileQuery(['page', 'limit', 'cursor', 'postId'], [...cursors, myPostId]),
              auth: asMe(),
            })
            .map(({ query, auth }) => ({
              method: 'GET',
              path: `/api/drafts?${query}`,
              auth,
              body: undefined,
              type: undefined,
            })),
          fc
            .record({ method: fc.constantFrom('GET', 'DELETE'), id, auth: asMe() })
            .map(({ method, id: draftId, auth }) => ({
              method,
              path: `/api/drafts/${draftId}`,
              auth,
              body: undefined,
              type: undefined,
            })),
        ),
        ({ method, path, auth, body, type }) => send(method, path, auth, body, type),
      );
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids and query strings on GET /api/allnotices, /api/userposts/:userId, /api/usernotices/:userId and /api/posts/:id/revisions',
    () =>
      check(
        fc.record({
          path: fc.oneof(
            fc.constant('/api/allnotices'),
            hostileId([me.id, other.id, ...realIds]).map((id) => `/api/userposts/${id}`),
            hostileId([me.id, other.id, ...realIds]).map((id) => `/api/usernotices/${id}`),
            hostileId([myPostId, otherPostId, ...realIds]).map((id) => `/api/posts/${id}/revisions`),
          ),
          query: hostileQuery(['page', 'limit', 'cursor'], cursors),
          auth: asMe(),
        }),
        ({ path, query, auth }) => send('GET', `${path}?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings and search syntax on GET /api/search',
    () =>
      check(
        fc.record({
          query: fc.oneof(
            hostileQuery(
              ['q', 'type', 'limit', 'cursor'],
              ['posts', 'notices', 'users', 'tags', 'post', '%22a%20b%22%20-c%20%40d'],
            ),
            fc
              .tuple(
                hostileString.filter((text) => text.length < 400),
                fc.constantFrom('posts', 'notices', 'users'),
              )
              .map(([q, type]) => `q=${percentEncode(q)}&type=${type}`),
          ),
          auth: asMe(),
        }),
        ({ query, auth }) => send('GET', `/api/search?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids on GET /api/user/:id, /api/posts/:id and /api/posts/:id/comments',
    () =>
      check(
        fc.record({
          // Ids of the right kind twice as often as the others: the wrong kind is a hostile id too.
          path: fc.oneof(
            hostileId([me.id, other.id, ...realIds]).map((id) => `/api/user/${id}`),
            hostileId([myPostId, otherPostId, ...realIds]).map((id) => `/api/posts/${id}`),
            hostileId([myPostId, otherPostId, ...realIds]).map((id) => `/api/posts/${id}/comments`),
          ),
          auth: asMe(),
        }),
        ({ path, auth }) => send('GET', path, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile ids on DELETE /api/deletepost/:id, /api/deletenotice/:id and /api/comment/:postId/:commentId',
    () =>
      check(
        fc.record({
          path: fc.oneof(
            hostileId(realIds).map((id) => `/api/deletepost/${id}`),
            hostileId(realIds).map((id) => `/api/deletenotice/${id}`),
            fc
              .tuple(hostileId([myPostId, otherPostId]), hostileId(commentIds))
              .map(([postId, commentId]) => `/api/comment/${postId}/${commentId}`),
          ),
          auth: asMe(),
        }),
        ({ path, auth }) => send('DELETE', path, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile query strings and tokens on GET /api/top-posts and GET /api/health',
    () =>
      check(
        fc.record({
          path: fc.constantFrom('/api/top-posts', '/api/health'),
          query: hostileQuery(['limit', 'page', 'cursor', 'window'], [...cursors, 'day', 'week', 'month', 'all']),
          auth: asMe(),
        }),
        ({ path, query, auth }) => send('GET', `${path}?${query}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile names, query strings and tokens on /api/tags, /api/tags/:name and its follow/mute',
    () =>
      check(
        fc.record({
          name: fc.oneof(fc.constantFrom('go', '#Go', 'a'.repeat(31), '-x'), hostileString).map(percentEncode),
          action: fc.constantFrom('GET list', 'GET', 'follow', 'unfollow', 'mute', 'unmute'),
          query: hostileQuery(['prefix', 'limit'], ['ja', '#JA', '10', '50']),
          auth: asMe(),
        }),
        ({ name, action, query, auth }) =>
          action === 'GET list'
            ? send('GET', `/api/tags?${query}`, auth)
            : action === 'GET'
              ? send('GET', `/api/tags/${name}`, auth)
              : send('PUT', `/api/tags/${name}/${action}`, auth),
      ),
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile multipart bodies on POST /api/upload, and stores no file for a refused one',
    async () => {
      const realImages = await Promise.all(
        (['png', 'jpeg', 'gif', 'webp', 'avif'] as const).map((format) =>
          sharp({ create: { width: 24, height: 16, channels: 3, background: '#c33' } })
            .toFormat(format)
            .toBuffer(),
        ),
      );
      const uploads = join(t.config.dataDir, 'uploads');
      await check(fc.record({ request: hostileMultipart(realImages), auth: asMe() }), async ({ request, auth }) => {
        const before = readdirSync(uploads).sort().join();
        const reply = await send('POST', '/api/upload', auth, request.body, request.type);
        if (reply.status >= 400 && readdirSync(uploads).sort().join() !== before) {
          throw new Error(`A refused upload (${reply.status} ${reply.text}) left files behind`);
        }
      });
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx to hostile headers (Accept, Accept-Encoding, If-None-Match, Host, X-Forwarded-For, Cookie)',
    () => {
      const headerValue = fc.oneof(
        hostileString.filter((value) => /^[\x20-\x7e]*$/.test(value)),
        fc.constantFrom(
          '*',
          '"',
          'W/"x"',
          '"abc", W/"def"',
          'br;q=NaN, gzip;q=-1',
          'identity;q=0',
          '[::1',
          'a'.repeat(4000),
        ),
      );
      return check(
        fc.record({
          endpoint: fc.constantFrom<[string, string]>(
            ['GET', '/api/posts'],
            ['GET', '/api/top-posts'],
            ['GET', `/api/posts/${otherPostId}`],
            ['PUT', '/api/like'],
            ['POST', '/api/createnotice'],
          ),
          headers: fc.dictionary(
            fc.constantFrom(
              'Accept',
              'Accept-Encoding',
              'If-None-Match',
              'Host',
              'X-Forwarded-For',
              'Cookie',
              'Origin',
            ),
            headerValue,
            { maxKeys: 4 },
          ),
          auth: asMe(),
        }),
        async ({ endpoint: [method, path], headers, auth }) => {
          const body =
            method === 'PUT' ? json({ postId: otherPostId }) : method === 'POST' ? json({ desc: 'n' }) : undefined;
          await expectSafeReply(t, client, {
            method,
            path,
            headers: {
              ...headers,
              ...(auth === undefined ? {} : { Authorization: auth }),
              ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
            },
            body,
          });
        },
      );
    },
    FAMILY_TIMEOUT_MS,
  );

  it(
    'never answers 5xx on any operation in /api/docs-json (hostile path parameters, query, body and token)',
    async () => {
      const docs = (await t.http.get('/api/docs-json').expect(200)).body as OpenApi;
      const operations = listOperations(docs);
      expect(operations.length).toBeGreaterThanOrEqual(API_ROUTES.length);
      // A user of its own: the sweep may revoke its tokens (logout-all) or change its profile.
      const user = await createUser(t);
      for (const operation of operations) {
        await check(
          fc.record({
            params: fc.tuple<string[]>(...operation.pathParams.map(() => hostileId(realIds))),
            query: hostileQuery(operation.queryParams, cursors),
            // Operations without a body get one now and then too (a GET or DELETE with JSON).
            body:
              operation.bodyFields === null
                ? fc.option(jsonValue(), { freq: 4, nil: undefined })
                : hostileBody(fieldsOf(operation.bodyFields)),
            type: contentType,
            auth: authorization(user.auth, user.id, t.config.jwtSecret!),
          }),
          ({ params, query, body, type, auth }) => {
            let index = 0;
            const path = operation.path.replace(/\{[^}]+\}/g, () => params[index++]);
            return send(operation.method, query ? `${path}?${query}` : path, auth, body, type);
          },
          SWEEP_RUNS,
        );
      }
    },
    FAMILY_TIMEOUT_MS,
  );

  describe('bugs the fuzzing found, pinned', () => {
    it('refuses a body nested 10,000 levels deep with 400, where validating it overflowed the stack (500)', async () => {
      const deep = '['.repeat(10_000) + ']'.repeat(10_000);
      for (const body of [deep, `{"title":${deep},"desc":"d"}`, `{"desc":"d","tags":${deep}}`]) {
        const reply = await send('POST', '/api/createpost', me.auth, body, 'application/json');
        expect({ status: reply.status, body: JSON.parse(reply.text) }).toEqual({
          status: 400,
          body: { error: 'The request body is nested too deeply' },
        });
      }
    });

    it('still accepts the nesting real bodies use (a notice with lists)', async () => {
      const reply = await send(
        'POST',
        '/api/createnotice',
        me.auth,
        json({ desc: 'Lists inside an object', tags: ['a'], links: ['https://example.com'] }),
        'application/json',
      );
      expect(reply.status).toBe(201);
    });

    it('refuses text holding NUL with 400, where PostgreSQL answered 500', async () => {
      for (const [method, path, body] of [
        ['POST', '/api/createpost', { title: 'a\u0000b', desc: 'd' }],
        ['POST', '/api/signin', { userName: 'x\u0000', password: 'whatever password' }],
        ['PUT', '/api/bio', { bio: '\u0000' }],
        ['POST', '/api/createnotice', { desc: 'd', tags: ['t\u0000'] }],
      ] as const) {
        const reply = await send(method, path, me.auth, json(body), 'application/json');
        expect({ path, status: reply.status, body: JSON.parse(reply.text) }).toEqual({
          path,
          status: 400,
          body: { error: 'Text may not contain the NUL character' },
        });
      }
    });

    it('stores an unpaired surrogate half as U+FFFD, the same on both databases', async () => {
      const reply = await send(
        'POST',
        '/api/createpost',
        me.auth,
        '{"title":"a\\ud800b","desc":"\\udfff"}',
        'application/json',
      );
      expect(reply.status).toBe(201);
      const post = (JSON.parse(reply.text) as { post: { _id: string } }).post;
      const stored = await t.db
        .selectFrom('posts')
        .select(['title', 'description'])
        .where('id', '=', post._id)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ title: 'a\uFFFDb', description: '\uFFFD' });
    });

    it("answers a malformed percent-encoding in the address with 400 { error }, not Fastify's own body", async () => {
      for (const path of ['/api/posts/%E0%A4%A', '/api/user/%', '/api/comment/%zz/%C3']) {
        const reply = await send(path.startsWith('/api/comment') ? 'DELETE' : 'GET', path, me.auth);
        expect({ status: reply.status, body: JSON.parse(reply.text) }).toEqual({
          status: 400,
          body: { error: expect.stringMatching(/address/) },
        });
      }
    });

    it('answers an address over the header size limit with 431 { error }', async () => {
      const reply = await send('GET', `/api/posts?cursor=${'a'.repeat(20_000)}`, undefined);
      expect({ status: reply.status, body: JSON.parse(reply.text) }).toEqual({
        status: 431,
        body: { error: expect.stringMatching(/too large/) },
      });
    });

    it('keeps every prototype clean after __proto__ and constructor.prototype in bodies and query strings', async () => {
      const before = await snapshot(t.db);
      for (const body of POLLUTION_BODIES) {
        const reply = await send('POST', '/api/createpost', me.auth, body, 'application/json');
        expect(reply.status).toBe(400);
      }
      const query = ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__=x', 'a[__proto__]=1'];
      const reply = await send(
        'GET',
        `/api/posts?${query.join('&')}&${percentEncode('__proto__')}[isAdmin]=1`,
        me.auth,
      );
      expect(reply.status).toBe(200);
      expect(await snapshot(t.db)).toBe(before);
      expectPrototypesClean();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers hostile scalars (1e309, -0, NaN as text) in place of text with 400', async () => {
      for (const body of ['{"title":1e309,"desc":"d"}', '{"title":"t","desc":-0}', '{"title":"NaN","desc":["d"]}']) {
        const reply = await send('POST', '/api/createpost', me.auth, body, 'application/json');
        expect(reply.status).toBe(400);
      }
    });
  });
});

interface OpenApi {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string }[];
        requestBody?: { content: Record<string, { schema: { $ref?: string; properties?: object } }> };
      }
    >
  >;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** null: the operation takes no JSON body. */
  bodyFields: string[] | null;
}

function listOperations(docs: OpenApi): Operation[] {
  return Object.entries(docs.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const content = operation.requestBody?.content ?? {};
      const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema;
      const ref = schema?.$ref?.split('/').pop();
      const properties = ref ? docs.components.schemas[ref]?.properties : schema?.properties;
      return {
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        queryParams: parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
        bodyFields: schema ? Object.keys(properties ?? {}) : null,
      };
    }),
  );
}

/** The generic sweep knows a body's field names, not their rules: any JSON value in each. */
function fieldsOf(names: string[]): Record<string, fc.Arbitrary<string>> {
  return Object.fromEntries(names.map((name) => [name, jsonValue(names)]));
}
