import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export interface LoadUser {
  id: string;
  userName: string;
  token: string;
}

export type OpKind = 'read' | 'like' | 'unlike' | 'comment' | 'follow' | 'unfollow';

/** One request of the load, as sent and as answered. */
export interface OpRecord {
  /** The connection (= the user) that sent it, and its place in that connection's sequence. */
  user: number;
  seq: number;
  kind: OpKind;
  /** The read's scenario, or the write's route. */
  label: string;
  method: 'GET' | 'PUT';
  /** For likes and follows: `<userId>:<postId|followeeId>`; the state it sets is `value`. */
  key: string;
  value: boolean;
  postId: string;
  /** A comment's text, unique in the run: how its row is found afterwards. */
  text: string;
  sentAt: number;
  answeredAt: number | null;
  status: number | null;
  /** The X-Instance header: every instance nginx tried, the last one answered. */
  instances: string;
}

export interface LoadOutcome {
  records: OpRecord[];
  startedAt: number;
  endedAt: number;
  autocannon: { errors: number; timeouts: number; requestsPerSecondMean: number };
}

export interface LoadOptions {
  url: string;
  users: LoadUser[];
  postIds: string[];
  durationSeconds: number;
  /** Makes the comments' texts unique to this run. */
  tag: string;
  /** Run at these seconds after the start (kill and restart an instance); awaited before returning. */
  schedule: { atSeconds: number; run: () => Promise<void> }[];
}

/** Per connection: which user it is and where it is in its sequence. */
interface ClientState {
  user?: number;
  step: number;
  likes: number;
  comments: number;
  follows: number;
  liked: Record<string, boolean>;
  followed: Record<string, boolean>;
}

/**
 * Six reads and four writes in every ten requests of each connection. One connection is one
 * signed-in user, and a connection sends its next request only after the previous reply (no
 * pipelining), so each user's writes reach the database in the order they were sent: the state a
 * user last set for a (user, post) like or (user, followee) follow is what must remain.
 */
const CYCLE = [
  'for-you',
  'like',
  'post',
  'following',
  'comment',
  'comments',
  'like',
  'top',
  'follow',
  'profile',
] as const;

export async function runClusterLoad(options: LoadOptions): Promise<LoadOutcome> {
  const { users, postIds, tag } = options;
  const records: OpRecord[] = [];
  let nextUser = 0;

  const setupRequest = (request: autocannon.Request, context: object): autocannon.Request => {
    const state = (request as unknown as { clientState: ClientState }).clientState;
    // Each connection holds its own deep copy of the request (autocannon clones the options per
    // connection), so clientState is this connection's and survives the per-request context reset.
    state.user ??= nextUser++ % users.length;
    const u = state.user;
    const user = users[u];
    const step = state.step++;
    const scenario = CYCLE[step % CYCLE.length];
    const auth = { authorization: `Bearer ${user.token}` };
    const record: OpRecord = {
      user: u,
      seq: step,
      kind: 'read',
      label: scenario,
      method: 'GET',
      key: '',
      value: false,
      postId: '',
      text: '',
      sentAt: performance.now(),
      answeredAt: null,
      status: null,
      instances: '',
    };
    let built: autocannon.Request;
    const readPost = postIds[(u + step) % postIds.length];
    switch (scenario) {
      case 'for-you':
        built = {
          ...request,
          method: 'GET',
          path: `/api/posts?feed=for-you&page=${(step % 3) + 1}&limit=10&view=compact`,
        };
        break;
      case 'post':
        built = { ...request, method: 'GET', path: `/api/posts/${readPost}?view=compact`, headers: auth };
        break;
      case 'following':
        built = { ...request, method: 'GET', path: '/api/posts?feed=following&limit=10&view=compact', headers: auth };
        break;
      case 'comments':
        built = { ...request, method: 'GET', path: `/api/posts/${readPost}/comments` };
        break;
      case 'top':
        built = { ...request, method: 'GET', path: '/api/top-posts' };
        break;
      case 'profile':
        built = { ...request, method: 'GET', path: `/api/user/${users[(u + step) % users.length].id}` };
        break;
      case 'like': {
        const postId = postIds[(u * 7 + state.likes++) % postIds.length];
        const like = !state.liked[postId];
        state.liked[postId] = like;
        Object.assign(record, {
          kind: like ? 'like' : 'unlike',
          label: like ? 'PUT /api/like' : 'PUT /api/unlike',
          method: 'PUT',
          key: `${user.id}:${postId}`,
          value: like,
          postId,
        });
        built = writeRequest(request, like ? '/api/like?view=compact' : '/api/unlike?view=compact', user.token, {
          postId,
        });
        break;
      }
      case 'comment': {
        const postId = postIds[(u * 3 + state.comments) % postIds.length];
        const text = `load ${tag} u${u} c${state.comments++}`;
        Object.assign(record, { kind: 'comment', label: 'PUT /api/comment', method: 'PUT', postId, text });
        built = writeRequest(request, '/api/comment?view=compact', user.token, { postId, text });
        break;
      }
      case 'follow': {
        const other = users[(u + 1 + (state.follows++ % (users.length - 1))) % users.length];
        const follow = !state.followed[other.id];
        state.followed[other.id] = follow;
        Object.assign(record, {
          kind: follow ? 'follow' : 'unfollow',
          label: follow ? 'PUT /api/follow' : 'PUT /api/unfollow',
          method: 'PUT',
          key: `${user.id}:${other.id}`,
          value: follow,
        });
        built = writeRequest(
          request,
          follow ? '/api/follow' : '/api/unfollow',
          user.token,
          follow ? { followId: other.id } : { unfollowId: other.id },
        );
        break;
      }
    }
    records.push(record);
    (context as { record?: OpRecord }).record = record;
    return built;
  };

  const onResponse = (
    status: number,
    _body: string,
    context: object,
    headers?: autocannon.Request['headers'],
  ): void => {
    const record = (context as { record?: OpRecord }).record;
    if (!record) return;
    record.answeredAt = performance.now();
    record.status = status;
    const header = headers ? Object.entries(headers).find(([name]) => name.toLowerCase() === 'x-instance')?.[1] : '';
    record.instances = Array.isArray(header) ? header.join(', ') : (header ?? '');
  };

  const template = {
    method: 'GET',
    path: '/api/health',
    setupRequest,
    onResponse,
    clientState: { step: 0, likes: 0, comments: 0, follows: 0, liked: {}, followed: {} } satisfies ClientState,
  } as unknown as autocannon.Request;

  const startedAt = performance.now();
  const scheduled: Promise<Error | null>[] = [];
  const timers = options.schedule.map(({ atSeconds, run }) =>
    setTimeout(
      () =>
        scheduled.push(
          run().then(
            () => null,
            (error: unknown) => (error instanceof Error ? error : new Error(JSON.stringify(error))),
          ),
        ),
      atSeconds * 1000,
    ),
  );
  try {
    const result = await new Promise<autocannon.Result>((resolveRun, reject) => {
      autocannon(
        {
          url: options.url,
          connections: users.length,
          duration: options.durationSeconds,
          requests: [template],
          // Longer than any reply can take, so a slow reply is a slow reply, not a lost one.
          timeout: 30,
        },
        (error: unknown, finished: autocannon.Result) => {
          if (error) reject(error instanceof Error ? error : new Error('autocannon failed', { cause: error }));
          else resolveRun(finished);
        },
      );
    });
    const endedAt = performance.now();
    // A restart still waiting for its health check is part of the run; its failure is the run's.
    const failed = (await Promise.all(scheduled)).find((outcome) => outcome !== null);
    if (failed) throw failed;
    return {
      records,
      startedAt,
      endedAt,
      autocannon: { errors: result.errors, timeouts: result.timeouts, requestsPerSecondMean: result.requests.average },
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}

function writeRequest(request: autocannon.Request, path: string, token: string, body: object): autocannon.Request {
  return {
    ...request,
    method: 'PUT',
    path,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}
