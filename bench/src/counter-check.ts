import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { field } from '@techit/testkit/api-client';
import {
  POST_COUNTERS_QUERY,
  type PostCounters,
  type PostCountersRow,
  storedCounterMismatches,
  toPostCounters,
} from '@techit/testkit/counter-query';
import { type DataSet, SQLITE_FILE } from './data-set';

export interface CounterCheck {
  posts: number;
  mismatches: number;
  exact: boolean;
  /** The first few mismatches, e.g. "abc…: api likesCount 12, stored 12, rows 11". */
  details: string[];
}

/**
 * After the writes: every touched post's counters, as the API reports them and as stored on
 * the row, against the rows actually in likes and comments, counted in SQL.
 */
export async function checkCounters(baseUrl: string, dataSet: DataSet, postIds: string[]): Promise<CounterCheck> {
  const truths = await settledTruth(dataSet, postIds);
  const details: string[] = [];
  let mismatches = 0;
  for (const id of postIds) {
    const truth = truths.get(id);
    const reply = await fetch(`${baseUrl}/api/posts/${id}?view=compact`); // the counts, not every liker
    const post = field(await reply.json(), 'post');
    const apiLikes = field(post, 'likesCount');
    const apiComments = field(post, 'commentsCount');
    const problems: string[] = [];
    if (!truth) problems.push('post not found in the database');
    else {
      if (apiLikes !== truth.likes) problems.push(`api likesCount ${String(apiLikes)} vs ${truth.likes} like rows`);
      if (apiComments !== truth.comments) {
        problems.push(`api commentsCount ${String(apiComments)} vs ${truth.comments} comment rows`);
      }
      problems.push(...storedCounterMismatches(truth).map((problem) => `stored ${problem}`));
    }
    if (problems.length > 0) {
      mismatches += 1;
      if (details.length < 5) details.push(`${id}: ${problems.join('; ')}`);
    }
  }
  return { posts: postIds.length, mismatches, exact: mismatches === 0, details };
}

const SETTLE_ATTEMPTS = 60;
const SETTLE_INTERVAL_MS = 500;

/**
 * autocannon stops sending at the deadline, but the server still works through the writes it
 * has queued; counting before they land would report a mismatch that is not one. So count
 * until two counts half a second apart agree.
 */
async function settledTruth(dataSet: DataSet, postIds: string[]): Promise<Map<string, PostCounters>> {
  let previous = await countTruth(dataSet, postIds);
  for (let attempt = 0; attempt < SETTLE_ATTEMPTS; attempt += 1) {
    await sleep(SETTLE_INTERVAL_MS);
    const current = await countTruth(dataSet, postIds);
    if (sameTruth(previous, current)) return current;
    previous = current;
  }
  throw new Error(
    `The like and comment counts were still changing ${(SETTLE_ATTEMPTS * SETTLE_INTERVAL_MS) / 1000} s after the writes`,
  );
}

function sameTruth(a: Map<string, PostCounters>, b: Map<string, PostCounters>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, left] of a) {
    const right = b.get(id);
    if (!right || (Object.keys(left) as (keyof PostCounters)[]).some((key) => left[key] !== right[key])) return false;
  }
  return true;
}

async function countTruth(dataSet: DataSet, postIds: string[]): Promise<Map<string, PostCounters>> {
  const rows: PostCounters[] = [];
  if (dataSet.databaseUrl) {
    const client = new Client({ connectionString: dataSet.databaseUrl });
    await client.connect();
    try {
      const result = await client.query<PostCountersRow>(`${POST_COUNTERS_QUERY} where p.id = any($1)`, [postIds]);
      for (const row of result.rows) rows.push(toPostCounters(row));
    } finally {
      await client.end();
    }
  } else {
    // Read-only beside the running server: WAL lets this read a consistent snapshot.
    const db = new Database(join(dataSet.dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      const statement = db.prepare<string[], PostCountersRow>(
        `${POST_COUNTERS_QUERY} where p.id in (${postIds.map(() => '?').join(',')})`,
      );
      for (const row of statement.all(...postIds)) rows.push(toPostCounters(row));
    } finally {
      db.close();
    }
  }
  return new Map(rows.map((row) => [row.id, row]));
}
