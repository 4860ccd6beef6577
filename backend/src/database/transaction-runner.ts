import { Inject, Injectable } from '@nestjs/common';
import type { Transaction } from 'kysely';
import type { Database, Db } from './database.types';
import { DATABASE } from './database.tokens';
import { onPrimary } from './read-routing';

/** Lets a service group repository calls into one transaction without touching Kysely itself. */
@Injectable()
export class TransactionRunner {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /** Always on the primary: a transaction exists to write, or to read a state a write depends on. */
  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return onPrimary(() => this.db.transaction().execute(work));
  }
}
