import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import type { Db, Dialect } from './database.types';
import { DATABASE, DATABASE_DIALECT } from './database.tokens';
import { TransactionRunner } from './transaction-runner';

@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  static forRoot(db: Db, dialect: Dialect) {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE, useValue: db },
        { provide: DATABASE_DIALECT, useValue: dialect },
        TransactionRunner,
      ],
      exports: [DATABASE, DATABASE_DIALECT, TransactionRunner],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
