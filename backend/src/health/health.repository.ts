import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, DATABASE_DIALECT } from '../database/database.tokens';
import type { Db, Dialect } from '../database/database.types';

/** The health check's one statement. */
@Injectable()
export class HealthRepository {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(DATABASE_DIALECT) readonly dialect: Dialect,
  ) {}

  /** Resolves once the database has answered a trivial statement; rejects when it cannot. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
