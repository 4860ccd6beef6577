import type { Provider } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { DATABASE } from '../database/database.tokens';
import type { Db } from '../database/database.types';
import { SIGNAL_TRANSPORT, type SignalTransport } from './notification-signals';
import { PgSignalTransport } from './pg-signal-transport';
import { RedisSignalTransport } from './redis-signal-transport';

/**
 * How notification signals travel between instances (docs/decisions/040): Redis pub/sub when
 * REDIS_URL is set (the store several instances already share for rate limits), else PostgreSQL
 * LISTEN/NOTIFY on DATABASE_URL, else none: SQLite is one file, so one instance, and
 * NotificationSignals tells its own streams directly. NotificationSignals starts the transport
 * when the application boots, so a stream opened at once hears every instance.
 */
export function signalTransportFor(config: AppConfig, db: Db): SignalTransport | null {
  if (config.redisUrl) return new RedisSignalTransport(config.redisUrl);
  if (config.databaseUrl) return new PgSignalTransport(config.databaseUrl, db);
  return null;
}

export const signalTransportProvider: Provider = {
  provide: SIGNAL_TRANSPORT,
  inject: [APP_CONFIG, DATABASE],
  useFactory: signalTransportFor,
};
