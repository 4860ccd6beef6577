import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { createApp } from './app-factory';
import { closeGracefullyOn } from './http/graceful-shutdown';
import { type AppConfig, ConfigError, loadConfig } from './config/app-config';

function readConfig(): AppConfig {
  try {
    // Settings may also live in ./.env (copy .env.example); variables already set win.
    if (existsSync('.env')) process.loadEnvFile('.env');
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const config = readConfig();
  const app = await createApp(config);
  closeGracefullyOn(app, ['SIGTERM', 'SIGINT']);
  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const database = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  new Logger('TechIt').log(`Listening on http://${shownHost}:${config.port} (${database}); API docs at /api/docs`);
}

main().catch((error: unknown) => {
  // A setting found bad while starting (e.g. an unreadable secret file) is one line, like the rest.
  if (error instanceof ConfigError) console.error(`Configuration error: ${error.message}`);
  else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
