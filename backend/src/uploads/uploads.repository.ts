import { Inject, Injectable } from '@nestjs/common';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';

/** Bound parameters per statement: far below either database's limit. */
const CHUNK = 500;

/**
 * Which stored images rows still point at. Only users.pic and posts.photo hold images (notices
 * carry text and links, no picture: see the spec); both columns are indexed for these lookups.
 */
@Injectable()
export class UploadsRepository {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async referenced(urls: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < urls.length; start += CHUNK) {
      const chunk = urls.slice(start, start + CHUNK);
      const rows = await this.db
        .selectFrom('users')
        .select('pic as url')
        .where('pic', 'in', chunk)
        // The photo index is partial (photo <> ''): saying so lets both planners use it.
        .union(this.db.selectFrom('posts').select('photo as url').where('photo', 'in', chunk).where('photo', '<>', ''))
        .execute();
      for (const row of rows) found.add(row.url);
    }
    return found;
  }
}
