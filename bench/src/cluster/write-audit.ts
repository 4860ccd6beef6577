import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { field, list } from '@techit/testkit/api-client';
import {
  POST_COUNTERS_QUERY,
  type PostCountersRow,
  storedCounterMismatches,
  toPostCounters,
} from '@techit/testkit/counter-query';
import { Client } from 'pg';
import { percentile } from '../load-runner';
import { call } from './api-call';
import type { LoadOutcome, LoadUser, OpRecord } from './cluster-load';

/** When the instance was killed, when its process was gone, and when it answered again (performance.now()). */
export interface KillWindow {
  instance: string;
  killedAt: number;
  /**
   * Until its process is gone a SIGKILLed instance still holds its sockets: the kernel keeps
   * accepting connections for it, and nginx's idle keep-alive connections to it look open. On a
   * busy machine that takes a while.
   */
  diedAt: number;
  restartedAt: number | null;
  rejoinedAt: number | null;
}

export interface ReplyFigures {
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: { all: Latency; reads: Latency; writes: Latency };
  gets: { total: number; failed: number; retriedByBalancer: number; samples: string[] };
  writes: {
    total: number;
    acknowledged: number;
    failed: number;
    /** Failed writes that were not in flight on the killed instance when it died. */
    failedOutsideKill: number;
    /** Sent just before the load stopped: never answered, not failures. */
    cutOffAtEnd: number;
    samples: string[];
  };
  /** Replies per instance (the last address in X-Instance). */
  perInstance: Record<string, number>;
  /** Replies from the killed instance once it was back. */
  servedAfterRejoin: number;
  autocannon: LoadOutcome['autocannon'];
}

export interface Latency {
  p50: number;
  p99: number;
}

/**
 * Reads the replies: a GET fails when it is not answered 2xx (or not answered at all while the
 * load ran); a write failure is allowed only when the instance it reached, by nginx's X-Instance,
 * is the killed one and it was sent before that instance's process was gone.
 */
export function analyseReplies(outcome: LoadOutcome, kill: KillWindow): ReplyFigures {
  const { records } = outcome;
  const lastOfUser = new Map<number, number>();
  for (const record of records) lastOfUser.set(record.user, Math.max(lastOfUser.get(record.user) ?? -1, record.seq));
  // autocannon stops at the deadline without waiting: each connection's last request may be unanswered.
  const cutOff = (record: OpRecord): boolean => record.status === null && lastOfUser.get(record.user) === record.seq;
  const ok = (record: OpRecord): boolean => record.status !== null && record.status >= 200 && record.status < 300;
  const describe = (record: OpRecord): string =>
    `${record.label} → ${record.status ?? 'no reply'} via ${record.instances || '?'} at ${((record.sentAt - outcome.startedAt) / 1000).toFixed(2)} s`;

  const gets = records.filter((record) => record.method === 'GET' && !cutOff(record));
  const failedGets = gets.filter((record) => !ok(record));
  const writes = records.filter((record) => record.method === 'PUT');
  const answeredWrites = writes.filter((record) => !cutOff(record));
  const failedWrites = answeredWrites.filter((record) => !ok(record));
  const failedOutsideKill = failedWrites.filter(
    (record) => !(record.sentAt <= kill.diedAt && lastAddress(record.instances) === kill.instance),
  );

  const perInstance: Record<string, number> = {};
  let servedAfterRejoin = 0;
  for (const record of records) {
    if (record.status === null) continue;
    const address = lastAddress(record.instances) || '(none)';
    perInstance[address] = (perInstance[address] ?? 0) + 1;
    if (address === kill.instance && kill.rejoinedAt !== null && record.sentAt > kill.rejoinedAt)
      servedAfterRejoin += 1;
  }
  const answered = records.filter((record) => record.answeredAt !== null);
  const latency = (subset: OpRecord[]): Latency => {
    const sorted = Float64Array.from(
      subset.filter(ok).map((record) => (record.answeredAt ?? record.sentAt) - record.sentAt),
    ).sort();
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
  };
  const seconds = (outcome.endedAt - outcome.startedAt) / 1000;
  return {
    seconds,
    requests: answered.length,
    requestsPerSecond: answered.length / seconds,
    latencyMs: {
      all: latency(records),
      reads: latency(records.filter((record) => record.method === 'GET')),
      writes: latency(writes),
    },
    gets: {
      total: gets.length,
      failed: failedGets.length,
      retriedByBalancer: gets.filter((record) => ok(record) && addresses(record.instances).length > 1).length,
      samples: failedGets.slice(0, 5).map(describe),
    },
    writes: {
      total: writes.length,
      acknowledged: writes.filter(ok).length,
      failed: failedWrites.length,
      failedOutsideKill: failedOutsideKill.length,
      cutOffAtEnd: writes.filter(cutOff).length,
      samples: [...failedOutsideKill, ...failedWrites].slice(0, 5).map(describe),
    },
    perInstance,
    servedAfterRejoin,
    autocannon: outcome.autocannon,
  };
}

function addresses(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

function lastAddress(header: string): string {
  return addresses(header).at(-1) ?? '';
}

export interface DatabaseAudit {
  /** Acknowledged writes whose effect is not in the database. */
  lostWrites: number;
  lostSamples: string[];
  /** Comments stored more than once for one request. */
  duplicatedWrites: number;
  /** Likes/follows whose last write was not acknowledged: either state is right. */
  undecidedPairs: number;
  /** Comments answered with an error that were stored anyway (the instance died after committing). */
  failedButStored: number;
  /** Comments sent just before the load stopped, never answered, and stored. */
  cutOffButStored: number;
  counters: {
    posts: number;
    profiles: number;
    mismatches: number;
    samples: string[];
    /** Posts and profiles whose first reply did not agree with the rows yet (a cached one). */
    reread: number;
    /** The longest one of those was read again before it agreed. */
    waitedMs: number;
  };
  settleMs: number;
}

/**
 * After the load: every acknowledged write is in the database (each acknowledged comment once,
 * each like and follow in the state its user last set with an acknowledged request), no comment
 * is stored twice, and every counter equals the rows: posts' likes/comments/commenters counters
 * (stored, and as the API reports them) and profiles' followers/following.
 */
export async function auditDatabase(
  databaseUrl: string,
  balancerUrl: string,
  outcome: LoadOutcome,
  users: LoadUser[],
  postIds: string[],
  cacheTtlMs: number,
): Promise<DatabaseAudit> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const settleMs = await settle(client);
    const settledAt = performance.now();
    const ok = (record: OpRecord): boolean => record.status !== null && record.status >= 200 && record.status < 300;
    const lostSamples: string[] = [];
    let lostWrites = 0;
    const lost = (message: string): void => {
      lostWrites += 1;
      if (lostSamples.length < 5) lostSamples.push(message);
    };

    // Comments: found by their texts, unique in the run.
    const stored = await client.query<{ text: string; copies: string }>(
      'select text, count(*)::text as copies from comments where post_id = any($1) group by text',
      [postIds],
    );
    const copies = new Map(stored.rows.map((row) => [row.text, Number(row.copies)]));
    let duplicatedWrites = 0;
    let failedButStored = 0;
    let cutOffButStored = 0;
    for (const record of outcome.records.filter((candidate) => candidate.kind === 'comment')) {
      const count = copies.get(record.text) ?? 0;
      if (count > 1) duplicatedWrites += 1;
      if (ok(record) && count === 0) lost(`acknowledged comment "${record.text}" is missing`);
      if (!ok(record) && count > 0) {
        if (record.status === null) cutOffButStored += 1;
        else failedButStored += 1;
      }
    }

    // Likes and follows: the state each user last set with an acknowledged request.
    const likeRows = await client.query<{ key: string }>(
      "select user_id || ':' || post_id as key from likes where post_id = any($1)",
      [postIds],
    );
    const followRows = await client.query<{ key: string }>(
      "select follower_id || ':' || followee_id as key from follows where follower_id = any($1)",
      [users.map((user) => user.id)],
    );
    const present = new Set([...likeRows.rows, ...followRows.rows].map((row) => row.key));
    const byKey = new Map<string, OpRecord[]>();
    for (const record of outcome.records) {
      if (record.key) byKey.set(record.key, [...(byKey.get(record.key) ?? []), record]);
    }
    let undecidedPairs = 0;
    for (const [key, ops] of byKey) {
      // One connection sends all of a pair's requests, one at a time: seq is the order they ran in.
      ops.sort((a, b) => a.seq - b.seq);
      let expected = false;
      let undecided = false;
      for (const op of ops) {
        if (ok(op)) {
          expected = op.value;
          undecided = false;
        } else {
          undecided = true;
        }
      }
      if (undecided) undecidedPairs += 1;
      else if (present.has(key) !== expected) {
        const last = ops.filter(ok).at(-1);
        lost(
          `${key}: last acknowledged ${last?.label ?? '?'}, but the row is ${present.has(key) ? 'there' : 'missing'}`,
        );
      }
    }

    const counters = await checkCounters(client, balancerUrl, users, postIds, settledAt + cacheTtlMs + CACHE_SLACK_MS);
    return {
      lostWrites,
      lostSamples,
      duplicatedWrites,
      undecidedPairs,
      failedButStored,
      cutOffButStored,
      counters,
      settleMs,
    };
  } finally {
    await client.end();
  }
}

/** Room for a busy machine beyond READ_CACHE_TTL_MS. */
const CACHE_SLACK_MS = 2000;

/**
 * The counters as stored and as the API reports them, against the rows. The API is read as a
 * visitor, through nginx: each instance keeps its visitors' replies up to READ_CACHE_TTL_MS and only
 * its own writes clear them, so a reply kept before the load's last writes (made on the other
 * instances) may still be served for that long. That is the contract (decision 054), not a
 * mismatch: each reply is read again until it agrees, up to `deadline` (the database's last
 * change plus the TTL and some slack), and the longest wait is reported.
 */
async function checkCounters(
  client: Client,
  balancerUrl: string,
  users: LoadUser[],
  postIds: string[],
  deadline: number,
): Promise<DatabaseAudit['counters']> {
  const samples: string[] = [];
  let mismatches = 0;
  let waitedMs = 0;
  let reread = 0;
  const mismatch = (message: string): void => {
    mismatches += 1;
    if (samples.length < 5) samples.push(message);
  };
  /** Reads `path` until `problem` finds none or the deadline passes; the last problem, or null. */
  const agreeing = async (path: string, problem: (body: unknown) => string | null): Promise<string | null> => {
    const started = performance.now();
    let attempts = 0;
    for (;;) {
      const reply = await call(balancerUrl, 'GET', path);
      const found = reply.status === 200 ? problem(reply.body) : `${path} answered ${reply.status}`;
      if (found === null) {
        const waited = performance.now() - started;
        if (attempts > 0) {
          reread += 1;
          waitedMs = Math.max(waitedMs, waited);
        }
        return null;
      }
      if (performance.now() > deadline) return found;
      attempts += 1;
      await sleep(100);
    }
  };
  const truths = await client.query<PostCountersRow>(`${POST_COUNTERS_QUERY} where p.id = any($1)`, [postIds]);
  const byId = new Map(truths.rows.map((row) => [String(row.id), toPostCounters(row)]));
  for (const id of postIds) {
    const counters = byId.get(id);
    if (!counters) {
      mismatch(`post ${id} is missing`);
      continue;
    }
    for (const problem of storedCounterMismatches(counters)) mismatch(`post ${id}: ${problem}`);
    const { likes, comments } = counters;
    const problem = await agreeing(`/api/posts/${id}`, (body) => {
      const post = field(body, 'post');
      return field(post, 'likesCount') === likes && field(post, 'commentsCount') === comments
        ? null
        : `post ${id}: the API says ${String(field(post, 'likesCount'))} likes, ${String(field(post, 'commentsCount'))} comments; the rows ${likes}, ${comments}`;
    });
    if (problem !== null) mismatch(problem);
  }
  const follows = await client.query<{ follower_id: string; followee_id: string }>(
    'select follower_id, followee_id from follows where follower_id = any($1) or followee_id = any($1)',
    [users.map((user) => user.id)],
  );
  for (const user of users) {
    const followers = follows.rows.filter((row) => row.followee_id === user.id).map((row) => row.follower_id);
    const following = follows.rows.filter((row) => row.follower_id === user.id).map((row) => row.followee_id);
    const problem = await agreeing(`/api/user/${user.id}`, (body) => {
      const profile = field(body, 'user');
      return sameSet(list(profile, 'followers'), followers) && sameSet(list(profile, 'following'), following)
        ? null
        : `user ${user.userName}: the API lists ${list(profile, 'followers').length} followers/${list(profile, 'following').length} following; the rows ${followers.length}/${following.length}`;
    });
    if (problem !== null) mismatch(problem);
  }
  return { posts: postIds.length, profiles: users.length, mismatches, samples, reread, waitedMs: Math.round(waitedMs) };
}

function sameSet(listed: unknown[], rows: string[]): boolean {
  const expected = new Set(rows);
  return listed.length === expected.size && listed.every((id) => typeof id === 'string' && expected.has(id));
}

/**
 * Requests cut off at the end may still be running in an instance: count the rows until two
 * counts half a second apart agree, so a write landing late is not taken for a mismatch.
 */
async function settle(client: Client): Promise<number> {
  const started = Date.now();
  const count = async (): Promise<string> => {
    const result = await client.query<{ state: string }>(
      `select (select count(*) from likes) || '/' || (select count(*) from comments) || '/' ||
              (select count(*) from follows) || '/' || (select coalesce(sum(likes_count + comments_count), 0) from posts) as state`,
    );
    return result.rows[0]?.state ?? '';
  };
  let previous = await count();
  for (let attempt = 0; attempt < 60; attempt += 1) {
    await sleep(500);
    const current = await count();
    if (current === previous) return Date.now() - started;
    previous = current;
  }
  throw new Error('The database was still changing 30 s after the load stopped');
}
