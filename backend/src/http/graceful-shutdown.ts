import type { Server } from 'node:http';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** Requests in flight get this long after the signal; then their connections are cut. */
export const SHUTDOWN_GRACE_MS = 10_000;
/** After the cut, closing the modules and the database gets this long before a hard exit. */
const STUCK_AFTER_MS = 5_000;
/** How often sockets that went idle during the drain are closed (see drainIdleSockets). */
const IDLE_SWEEP_MS = 100;

/**
 * On SIGTERM or SIGINT: stop accepting connections, let requests in flight finish (at most
 * SHUTDOWN_GRACE_MS), close the database, exit 0. A second signal exits at once.
 */
export function closeGracefullyOn(app: NestFastifyApplication, signals: NodeJS.Signals[]): void {
  const log = new Logger('Shutdown');
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      log.warn(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    closing = true;
    void shutDown(app, signal, log);
  };
  for (const signal of signals) process.on(signal, onSignal);
}

async function shutDown(app: NestFastifyApplication, signal: NodeJS.Signals, log: Logger): Promise<void> {
  log.log(`${signal}: refusing new connections, finishing requests in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s)`);
  const fastify = app.getHttpAdapter().getInstance();
  const stopSweeping = drainIdleSockets(fastify.server);
  const cut = setTimeout(() => {
    log.warn(`Requests still in flight after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`);
    fastify.server.closeAllConnections();
    setTimeout(() => {
      log.error('Shutdown is stuck: exiting');
      process.exit(1);
    }, STUCK_AFTER_MS).unref();
  }, SHUTDOWN_GRACE_MS);
  cut.unref();
  try {
    // The HTTP server first, on its own: Nest's close() would run the modules' destroy hooks
    // before it, under requests still in flight. Then the modules; the database closes last.
    await fastify.close();
    stopSweeping();
    await app.close();
    log.log('Stopped');
    process.exit(0);
  } catch (error) {
    log.error(error);
    process.exit(1);
  }
}

/**
 * Node closes the sockets that are idle when the server closes, but a keep-alive socket whose
 * request finishes during the drain would stay open until its client or the keep-alive timeout
 * (72 s) ends it, and the server's close waits for every socket.
 */
function drainIdleSockets(server: Server): () => void {
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  sweep.unref();
  return () => clearInterval(sweep);
}
