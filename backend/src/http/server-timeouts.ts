import type { ServerOptions } from 'node:http';
import type { AppConfig } from '../config/app-config';

type TimeoutSettings = Pick<AppConfig, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

export interface ServerTimeoutOptions {
  connectionTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  http: ServerOptions;
}

/**
 * Fastify's server options against clients that hold a connection without finishing a request
 * (slowloris): the headers must arrive within HEADERS_TIMEOUT_MS and the whole request, body
 * included, within REQUEST_TIMEOUT_MS, or the client gets a 408 and the connection is closed.
 * A connection silent for longer than any of the limits (not even reading its reply) is
 * dropped. Each cut connection frees its socket, so a few slow clients cannot use them all.
 */
export function serverTimeoutOptions(settings: TimeoutSettings): ServerTimeoutOptions {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = settings;
  return {
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionTimeout: Math.max(requestTimeoutMs, keepAliveTimeoutMs) + 1000,
    http: {
      headersTimeout: headersTimeoutMs,
      // Node checks the two limits above in a sweep over open connections, every 30 s by default:
      // a limit of 10 s would then mean up to 40 s. Once a second (or faster for shorter limits).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
      // Given here too: Node checks it against headersTimeout when it creates the server.
      requestTimeout: requestTimeoutMs,
    },
  };
}
