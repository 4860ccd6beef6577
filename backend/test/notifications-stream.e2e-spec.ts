import type { Notification, NotificationStreamEvent, Post } from '@techit/contract/api-types';
import { encodeCursor } from '../src/common/cursor';
import { newObjectId } from '../src/common/object-id';
import { NotificationSignals } from '../src/notifications/notification-signals';
import { NotificationStreams, STREAM_REREAD_WINDOW_MS } from '../src/notifications/notification-streams';
import { eventData, listening, openStream, type OpenStream, type SseBlock } from './support/event-stream';
import { createPost, createUser, type TestUser } from './support/factories';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * GET /api/notifications/stream (docs/decisions/039-notifications.md): who may open it, what it
 * sends first, what it sends when something happens, the catch-up after a reconnect, the
 * heartbeat, and its end when the server closes. Waits are for events, never for time.
 */
let t: TestApp;
let base: string;
const opened: OpenStream[] = [];

async function start(settings: Record<string, string> = {}): Promise<void> {
  t = await startTestApp(settings);
  base = await listening(t.app);
}

afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  if (!closed) await t?.close();
  closed = false;
});
let closed = false;

async function stream(path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const open = await openStream(base, path, headers);
  opened.push(open);
  return open;
}

const streamOf = (user: TestUser, headers: Record<string, string> = {}) =>
  stream('/api/notifications/stream', { authorization: user.auth, ...headers });

const isEvent = (block: SseBlock) => block.event === 'notification';
const about = (kind: string) => (block: SseBlock) =>
  isEvent(block) && eventData<NotificationStreamEvent>(block).notification?.kind === kind;

async function ticket(user: TestUser): Promise<string> {
  const response = await t.http.post('/api/notifications/stream-ticket').set('Authorization', user.auth).expect(200);
  expect(response.body).toEqual({ ticket: expect.any(String), expiresInSeconds: 60 });
  return response.body.ticket as string;
}

const like = (user: TestUser, post: Post) =>
  t.http.put('/api/like').set('Authorization', user.auth).send({ postId: post._id }).expect(200);

/**
 * The reader had a stream open, got `liker`'s like of `post` on it, and went away: answers the
 * last event they got, whose id a reconnect sends as Last-Event-ID.
 */
async function sawALikeThenLeft(reader: TestUser, liker: TestUser, post: Post): Promise<SseBlock> {
  const first = await streamOf(reader);
  await first.waitFor(isEvent);
  await like(liker, post);
  const seen = await first.waitFor(about('like'));
  first.close();
  await first.ended;
  return seen;
}

async function expectRefused(open: OpenStream, status: number, error: RegExp): Promise<void> {
  expect(open.status).toBe(status);
  expect(open.headers['content-type']).toMatch(/application\/json/);
  expect(JSON.parse(await open.body())).toEqual({ error: expect.stringMatching(error) });
}

describe('who may open it', () => {
  beforeEach(() => start());

  it('refuses a request without a login with 401 JSON, before any stream starts', async () => {
    await expectRefused(await stream('/api/notifications/stream'), 401, /log in/);
    await expectRefused(
      await stream('/api/notifications/stream', { authorization: 'Bearer nope' }),
      401,
      /session is not valid/,
    );
  });

  it('never takes the login token from the URL, even a valid one', async () => {
    const user = await createUser(t);
    for (const name of ['token', 'access_token', 'jwt']) {
      await expectRefused(
        await stream(`/api/notifications/stream?${name}=${encodeURIComponent(user.token)}`),
        401,
        /never accepted in a URL/,
      );
    }
  });

  it('opens with the Authorization header: an uncompressed event stream, no ETag, retry then the unread count', async () => {
    const [reader, liker] = [await createUser(t), await createUser(t)];
    await like(liker, await createPost(t, reader));
    const open = await streamOf(reader, { 'accept-encoding': 'br, gzip' });
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(open.headers['content-encoding']).toBeUndefined();
    expect(open.headers.etag).toBeUndefined();
    expect(open.headers['cache-control']).toBe('no-cache, no-transform');
    const first = await open.waitFor(isEvent);
    expect(open.blocks[0]).toEqual({ retry: 3000 });
    expect(eventData(first)).toEqual({ unreadCount: 1 });
    // It carries the newest notification's position, so a reconnect catches up from there.
    expect(first.id).toEqual(expect.any(String));
  });

  it('opens with a ticket once; a second use, an unknown ticket and an expired one get 401', async () => {
    const user = await createUser(t);
    const single = await ticket(user);
    const open = await stream(`/api/notifications/stream?ticket=${single}`);
    expect(open.status).toBe(200);
    expect(eventData(await open.waitFor(isEvent))).toEqual({ unreadCount: 0 });
    await expectRefused(await stream(`/api/notifications/stream?ticket=${single}`), 401, /ticket is not valid/);
    await expectRefused(await stream('/api/notifications/stream?ticket=made-up'), 401, /ticket is not valid/);

    const late = await ticket(user);
    // Its minute has passed (moved back rather than waited for).
    await t.db
      .updateTable('stream_tickets')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    await expectRefused(await stream(`/api/notifications/stream?ticket=${late}`), 401, /ticket is not valid/);
    // Stored by hash: the table never holds a usable ticket.
    const rows = await t.db.selectFrom('stream_tickets').select('id').execute();
    expect(rows.map((row) => row.id)).not.toContain(late);
  });

  it('refuses a Last-Event-ID that is not one of its ids with 400', async () => {
    const user = await createUser(t);
    await expectRefused(await streamOf(user, { 'last-event-id': 'garbage' }), 400, /Last-Event-ID/);
    // Refused before the ticket is spent: it still opens the stream afterwards.
    const kept = await ticket(user);
    await expectRefused(
      await stream(`/api/notifications/stream?ticket=${kept}&lastEventId=garbage`),
      400,
      /Last-Event-ID/,
    );
    expect((await stream(`/api/notifications/stream?ticket=${kept}`)).status).toBe(200);
  });
});

describe('what it sends', () => {
  beforeEach(() => start());

  it('a like arrives as an event with the notification, its id and the new unread count', async () => {
    const [reader, liker] = [await createUser(t), await createUser(t)];
    const post = await createPost(t, reader);
    const open = await streamOf(reader);
    expect(eventData(await open.waitFor(isEvent))).toEqual({ unreadCount: 0 });
    await like(liker, post);
    const block = await open.waitFor(about('like'));
    const event = eventData<NotificationStreamEvent>(block);
    expect(event.unreadCount).toBe(1);
    expect(event.notification).toMatchObject({ kind: 'like', actorsCount: 1, post: { _id: post._id }, read: false });
    const [listed] = (await t.http.get('/api/notifications').set('Authorization', reader.auth)).body.notifications;
    expect(event.notification).toEqual(listed);
    expect(block.id).toBe(encodeCursor({ createdAt: listed.createdAt, id: listed._id }));
  });

  it('marking read sends the new count alone', async () => {
    const [reader, follower] = [await createUser(t), await createUser(t)];
    await t.http.put('/api/follow').set('Authorization', follower.auth).send({ followId: reader.id }).expect(200);
    const open = await streamOf(reader);
    expect(eventData(await open.waitFor(isEvent))).toEqual({ unreadCount: 1 });
    await t.http.put('/api/notifications/read').set('Authorization', reader.auth).send({ all: true }).expect(200);
    const counted = await open.waitFor((block) => isEvent(block) && eventData(block).unreadCount === 0);
    expect(eventData(counted)).toEqual({ unreadCount: 0 });
    expect(counted.id).toBeUndefined();
  });

  it("another user's events do not reach this stream", async () => {
    const [reader, other, liker] = [await createUser(t), await createUser(t), await createUser(t)];
    const mine = await createPost(t, reader);
    const theirs = await createPost(t, other);
    const open = await streamOf(reader);
    await open.waitFor(isEvent);
    await like(liker, theirs);
    await like(liker, mine);
    await open.waitFor(about('like'));
    const posts = open.blocks
      .filter(isEvent)
      .map((block) => eventData<NotificationStreamEvent>(block).notification?.post?._id)
      .filter(Boolean);
    expect(posts).toEqual([mine._id]);
  });

  it('Last-Event-ID (header, or ?lastEventId= with a ticket) replays what changed since (and the window before it)', async () => {
    const [reader, a, b, c] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, reader);
    const seen = await sawALikeThenLeft(reader, a, post);

    // Missed while away: a follow, and the like group moving up.
    await t.http.put('/api/follow').set('Authorization', b.auth).send({ followId: reader.id }).expect(200);
    await like(c, post);

    const again = await streamOf(reader, { 'last-event-id': seen.id! });
    const follow = await again.waitFor(about('follow'));
    const likeAgain = await again.waitFor(about('like'));
    const replayed = again.blocks.filter((block) => isEvent(block) && eventData(block).notification);
    expect(replayed).toEqual([follow, likeAgain]);
    expect((eventData(likeAgain).notification as Notification).actorsCount).toBe(2);
    expect(eventData(again.blocks.find(isEvent)!)).toEqual({ unreadCount: 2 });

    const byTicket = await stream(
      `/api/notifications/stream?ticket=${await ticket(reader)}&lastEventId=${encodeURIComponent(follow.id!)}`,
    );
    const onlyLike = await byTicket.waitFor(about('like'));
    expect(onlyLike.id).toBe(likeAgain.id);
    // The follow is within the window re-read before that position (late commits): it comes again,
    // and the client merges it by _id. What is older than the window is not replayed (below).
    expect(byTicket.blocks.filter((block) => isEvent(block) && eventData(block).notification)).toEqual([
      follow,
      onlyLike,
    ]);
  });
});

describe('late commits (a notification stamped before one already sent, committed after it)', () => {
  beforeEach(() => start());

  /**
   * A follow of `reader` by `actor` stamped `msBefore` earlier than `than`, written straight to the
   * database as the commit of a slow writer, then signalled like any commit.
   */
  async function lateFollow(reader: TestUser, actor: TestUser, than: string, msBefore: number): Promise<string> {
    const createdAt = new Date(Date.parse(than) - msBefore).toISOString();
    const id = newObjectId(new Date(createdAt));
    await t.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('notifications')
        .values({ id, user_id: reader.id, kind: 'follow', created_at: createdAt })
        .execute();
      await trx
        .insertInto('notification_actors')
        .values({ notification_id: id, actor_id: actor.id, created_at: createdAt })
        .execute();
    });
    await t.app.get(NotificationSignals).changed([reader.id]);
    return id;
  }

  const sentIds = (open: OpenStream) =>
    open.blocks
      .filter((block) => isEvent(block) && eventData(block).notification)
      .map((block) => eventData<NotificationStreamEvent>(block).notification!._id);

  it('still arrives live; an unchanged one is never sent twice, a like group moving up is', async () => {
    const [reader, a, b, c] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const [post, other] = [await createPost(t, reader), await createPost(t, reader)];
    const open = await streamOf(reader);
    await open.waitFor(isEvent);
    await like(a, post);
    const newer = eventData<NotificationStreamEvent>(await open.waitFor(about('like'))).notification!;

    const late = await lateFollow(reader, b, newer.createdAt, 1000);
    // Several more signals with nothing changed, then real changes: the group moves up, a new group.
    for (let i = 0; i < 3; i += 1) await t.app.get(NotificationSignals).changed([reader.id]);
    await like(c, post);
    await like(a, other);
    await open.waitFor(
      (block) =>
        about('like')(block) && eventData<NotificationStreamEvent>(block).notification?.post?._id === other._id,
    );

    expect(sentIds(open)).toEqual([newer._id, late, newer._id, expect.any(String)]);
    const follow = await open.waitFor(about('follow'));
    expect(eventData(follow).notification).toMatchObject({ _id: late, kind: 'follow' });
    // 2, or 3 when the signals (asynchronous through a transport) are read together with the last like.
    expect(eventData(follow).unreadCount).toBeGreaterThanOrEqual(2);
  });

  it('arrives after a reconnect with Last-Event-ID; the window before it is read again, nothing older', async () => {
    const [reader, a, b, old] = [await createUser(t), await createUser(t), await createUser(t), await createUser(t)];
    const post = await createPost(t, reader);
    const seen = await sawALikeThenLeft(reader, a, post);
    const likedAt = eventData<NotificationStreamEvent>(seen).notification!.createdAt;

    // Committed while away, stamped before the last event the reader got (one older than the window).
    const late = await lateFollow(reader, b, likedAt, 1000);
    await lateFollow(reader, old, likedAt, STREAM_REREAD_WINDOW_MS + 1000);

    const again = await streamOf(reader, { 'last-event-id': seen.id! });
    const follow = await again.waitFor(about('follow'));
    expect(eventData<NotificationStreamEvent>(follow).notification!._id).toBe(late);
    // The like the reader already has comes again (the client merges by _id); the older follow does not.
    await again.waitFor(about('like'));
    expect(sentIds(again).sort()).toEqual([late, eventData<NotificationStreamEvent>(seen).notification!._id].sort());
  });
});

describe('heartbeat and shutdown', () => {
  it('sends a `: ping` comment every NOTIFICATION_HEARTBEAT_MS', async () => {
    await start({ NOTIFICATION_HEARTBEAT_MS: '50' });
    const open = await streamOf(await createUser(t));
    await open.waitFor((block) => block.comment === 'ping');
    await open.waitFor(
      (block) => block.comment === 'ping' && open.blocks.filter((b) => b.comment === 'ping').length >= 2,
    );
  });

  it('ends open streams when the server closes (graceful shutdown closes the server first)', async () => {
    await start();
    const user = await createUser(t);
    const open = await streamOf(user);
    await open.waitFor(isEvent);
    expect(t.app.get(NotificationStreams).size).toBe(1);
    // What graceful-shutdown.ts does first: close the HTTP server, before the modules.
    await t.app.getHttpAdapter().getInstance().close();
    await open.ended;
    expect(t.app.get(NotificationStreams).size).toBe(0);
  });

  it('ends open streams when the app closes', async () => {
    await start();
    const open = await streamOf(await createUser(t));
    await open.waitFor(isEvent);
    closed = true;
    const closing = t.close();
    await open.ended;
    await closing;
  });
});
