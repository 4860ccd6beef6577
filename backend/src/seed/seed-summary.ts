import type { Dialect } from '../database/database.types';
import type { TableName } from './bulk-writer';
import type { SeedLandmarks, SeedSizes } from './seed-generator';

// Types only, apart from run-seed.ts and what it imports, so the bench can read them too.
/** What DATA_DIR/seed-summary.json holds. */
export interface SeedSummary {
  seed: number;
  dialect: Dialect;
  sizes: SeedSizes;
  durationMs: number;
  password: string;
  landmarks: SeedLandmarks;
  /** The stored picture URLs that posts and avatars reuse. */
  images: string[];
  /**
   * Where the time went, in ms: each table's inserts, generating the rows, the commit (which
   * rebuilds the deferred indexes) and the steps around them.
   */
  timings: Record<TableName | 'images' | 'generate' | 'commit' | 'analyze', number>;
}
