import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { type DataSet, SQLITE_FILE } from './data-set';
import { field } from './scenarios';

export interface CounterCheck {
  posts: number;
  mismatches: number;
  exact: boolean;
  /** The first few mismatches, e.g. "abc…: api likesCount 12, stored 12, rows 11". */
  details: string[];
}

interface Truth {
  id: string;
  likes_count: number;
  comments_count: number;
  commenters_count: number;
  likes: number;
  comments: number;
  commenters: number;
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
    const reply = await fetch(`${baseUrl}/api/posts/${id}`);
    const post = field(await reply.json(), 'post');
    const apiLikes = field(post, 'likesCount');
    const apiComments = field(post, 'commentsCount');
    const problems: string[] = [];
    if (!truth) problems.push('post not found in the database');
    else {
      if (apiLikes !== truth.likes) problems.push(`api likesCount ${String(apiLikes)} vs ${truth.likes} like rows`);
      if (truth.likes_count !== truth.likes) problems.push(`stored likes_count ${truth.likes_count} vs ${truth.likes}`);
      if (apiComments !== truth.comments) {
        problems.push(`api commentsCount ${String(apiComments)} vs ${truth.comments} comment rows`);
      }
      if (truth.comments_count !== truth.comments) {
        problems.push(`stored comments_count ${truth.comments_count} vs ${truth.comments}`);
      }
      if (truth.commenters_count !== truth.commenters) {
        problems.push(`stored commenters_count ${truth.commenters_count} vs ${truth.commenters} distinct commenters`);
      }
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

const TRUTH_COLUMNS = `p.id, p.likes_count, p.comments_count, p.commenters_count,
  (select count(*) from likes l where l.post_id = p.id) as likes,
  (select count(*) from comments c where c.post_id = p.id) as comments,
  (select count(distinct c.author_id) from comments c where c.post_id = p.id) as commenters`;

/**
 * autocannon stops sending at the deadline, but the server still works through the writes it
 * has queued; counting before they land would report a mismatch that is not one. So count
 * until two counts half a second apart agree.
 */
async function settledTruth(dataSet: DataSet, postIds: string[]): Promise<Map<string, Truth>> {
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

function sameTruth(a: Map<string, Truth>, b: Map<string, Truth>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, left] of a) {
    const right = b.get(id);
    if (!right || (Object.keys(left) as (keyof Truth)[]).some((key) => left[key] !== right[key])) return false;
  }
  return true;
}

async function countTruth(dataSet: DataSet, postIds: string[]): Promise<Map<string, Truth>> {
  const rows: Truth[] = [];
  if (dataSet.databaseUrl) {
    const client = new Client({ connectionString: dataSet.databaseUrl });
    await client.connect();
    try {
      const result = await client.query<Record<keyof Truth, string | number>>(
        `select ${TRUTH_COLUMNS} from posts p where p.id = any($1)`,
        [postIds],
      );
      for (const row of result.rows) rows.push(toTruth(row));
    } finally {
      await client.end();
    }
  } else {
    // Read-only beside the running server: WAL lets this read a consistent snapshot.
    const db = new Database(join(dataSet.dir, SQLITE_FILE), { readonly: true, fileMustExist: true });
    try {
      const statement = db.prepare<string[], Record<keyof Truth, string | number>>(
        `select ${TRUTH_COLUMNS} from posts p where p.id in (${postIds.map(() => '?').join(',')})`,
      );
      for (const row of statement.all(...postIds)) rows.push(toTruth(row));
    } finally {
      db.close();
    }
  }
  return new Map(rows.map((row) => [row.id, row]));
}

/** PostgreSQL returns count(*) as text (bigint). */
function toTruth(row: Record<keyof Truth, string | number>): Truth {
  return {
    id: String(row.id),
    likes_count: Number(row.likes_count),
    comments_count: Number(row.comments_count),
    commenters_count: Number(row.commenters_count),
    likes: Number(row.likes),
    comments: Number(row.comments),
    commenters: Number(row.commenters),
  };
}
