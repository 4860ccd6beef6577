import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '../database/transaction-runner';
import type { Executor } from '../database/database.types';
import { RENDERER_VERSION } from './markdown-renderer';
import { MarkdownService } from './markdown.service';
import { RerenderRepository } from './rerender.repository';

export const RERENDER_TABLES = ['posts', 'comments', 'notices'] as const;
export type RerenderTable = (typeof RERENDER_TABLES)[number];

export interface RerenderOptions {
  /** Rows rendered, then written in one transaction. */
  batchSize?: number;
  /** Stop after this many batches in all (a partial run; the next run carries on). */
  maxBatches?: number;
  /** One line per batch and per table. */
  log?: (line: string) => void;
}

export interface RerenderSummary {
  version: number;
  updated: Record<RerenderTable, number>;
  /** False when maxBatches stopped the run before every table was done. */
  complete: boolean;
}

export const DEFAULT_RERENDER_BATCH = 500;

/** One batch of stale rows of one table: how to read it, render a row, and store it. */
interface TableWalk<Row extends { id: string }, Html> {
  read(afterId: string, limit: number): Promise<Row[]>;
  render(row: Row): Promise<Html>;
  store(ex: Executor, row: Row, html: Html): Promise<boolean>;
}

/**
 * `npm run rerender` (docs/decisions/028-stored-html.md): renders again every post (desc and
 * body), comment and notice whose stored HTML is missing or was rendered by another
 * RENDERER_VERSION, in batches by id, each batch written in its own transaction. Rows already at
 * the current version are never read again, so a second run changes nothing and a run killed
 * midway is carried on by the next. Rendering happens before each batch's transaction, so no
 * lock waits for the renderer.
 */
@Injectable()
export class RerenderService {
  constructor(
    private readonly rows: RerenderRepository,
    private readonly markdown: MarkdownService,
    private readonly transactions: TransactionRunner,
  ) {}

  async run(options: RerenderOptions = {}): Promise<RerenderSummary> {
    const version = RENDERER_VERSION;
    const run: RunState = {
      batchSize: options.batchSize ?? DEFAULT_RERENDER_BATCH,
      batchesLeft: options.maxBatches ?? Infinity,
      log: options.log ?? (() => undefined),
      updated: { posts: 0, comments: 0, notices: 0 },
    };
    const complete =
      (await this.walk(run, 'posts', {
        read: (after, limit) => this.rows.stalePosts(version, after, limit),
        render: async (post) => ({
          desc: await this.markdown.render(post.description, 'comment'),
          body: post.body === '' ? '' : await this.markdown.render(post.body, 'post'),
        }),
        store: (ex, post, html) => this.rows.storePost(ex, post, html, version),
      })) &&
      (await this.walk(run, 'comments', {
        read: (after, limit) => this.rows.staleTexts('comments', version, after, limit),
        render: (comment) => this.markdown.render(comment.source, 'comment'),
        store: (ex, comment, html) => this.rows.storeText(ex, 'comments', comment, html, version),
      })) &&
      (await this.walk(run, 'notices', {
        read: (after, limit) => this.rows.staleTexts('notices', version, after, limit),
        render: (notice) => this.markdown.render(notice.source, 'notice'),
        store: (ex, notice, html) => this.rows.storeText(ex, 'notices', notice, html, version),
      }));
    const { updated } = run;
    if (!complete) run.log(`Stopped at the batch limit after ${describe(updated)}; run again to carry on`);
    else if (updated.posts + updated.comments + updated.notices === 0)
      run.log(`Nothing to re-render: every post, comment and notice is at renderer version ${version}`);
    else run.log(`Re-rendered ${describe(updated)} with renderer version ${version}`);
    return { version, updated, complete };
  }

  /** One table, batch after batch; false when the batch limit stopped it with rows left. */
  private async walk<Row extends { id: string }, Html>(
    run: RunState,
    table: RerenderTable,
    walk: TableWalk<Row, Html>,
  ): Promise<boolean> {
    let afterId = '';
    for (;;) {
      const batch = await walk.read(afterId, run.batchSize);
      if (batch.length === 0) return true;
      if (run.batchesLeft <= 0) return false;
      run.batchesLeft -= 1;
      const html: Html[] = [];
      for (const row of batch) html.push(await walk.render(row));
      const stored = await this.transactions.run(async (trx) => {
        let count = 0;
        for (const [index, row] of batch.entries()) if (await walk.store(trx, row, html[index])) count += 1;
        return count;
      });
      run.updated[table] += stored;
      afterId = batch[batch.length - 1].id;
      run.log(`${table}: ${run.updated[table]} re-rendered (up to id ${afterId})`);
    }
  }
}

interface RunState {
  batchSize: number;
  batchesLeft: number;
  log: (line: string) => void;
  updated: Record<RerenderTable, number>;
}

function describe(updated: Record<RerenderTable, number>): string {
  return `${updated.posts} posts, ${updated.comments} comments, ${updated.notices} notices`;
}
