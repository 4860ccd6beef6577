import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { loadConfig } from '../config/app-config';
import { throwawayJwtSecret } from '../config/jwt-secret';
import { createDatabase } from '../database/create-database';
import { migrateToLatest } from '../database/migrations';
import { UsersService } from '../users/users.service';

const USAGE = 'Usage: npm run admin -- grant <userName> | revoke <userName>';

/** `npm run admin -- grant|revoke <userName>`: the stored admin role, beside ADMIN_USERNAMES. */
async function main(): Promise<void> {
  const [command, userName] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !userName) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const { db, dialect } = createDatabase(config);
  await migrateToLatest(db, dialect);
  const context = await NestFactory.createApplicationContext(
    // Signs no token: it must run without JWT_SECRET too (required by the server with PostgreSQL).
    AppModule.forRoot(config, throwawayJwtSecret(), db, dialect),
    { logger: false },
  );
  try {
    const role = command === 'grant' ? 'admin' : 'user';
    const user = await context.get(UsersService).setStoredRole(userName, role);
    console.log(`${user.userName} now has the stored role "${role}" (effective role: ${user.role})`);
  } finally {
    await context.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
