import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { throwawayJwtSecret } from '../config/jwt-secret';
import { createDatabase } from '../database/create-database';
import { migrateToLatest } from '../database/migrations';

/**
 * Runs a command-line tool's work inside the app's services, as the server would see them: the
 * configured database (DATA_DIR / DATABASE_URL) migrated first, then a Nest application context
 * without HTTP, closed (with its database) whatever the work does.
 */
export async function withCliAppContext<T>(work: (context: INestApplicationContext) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  await migrateToLatest(db, dialect);
  const context = await NestFactory.createApplicationContext(
    // Signs no token: it must run without JWT_SECRET too (required by the server with PostgreSQL).
    AppModule.forRoot(config, throwawayJwtSecret(), db, dialect),
    { logger: false },
  );
  try {
    return await work(context);
  } finally {
    await context.close();
  }
}
