import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from 'kysely';
import type { Database, Db } from './database.types';
import { DATABASE } from './database.tokens';

/** Lets a service group repository calls into one transaction without touching Kysely itself. */
@Injectable()
export class TransactionRunner {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
