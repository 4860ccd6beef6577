import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Logger } from 'pino';
import { loggableUrl } from './loggable-url';
import { logFlatInfo } from './request-line';

/**
 * A caller's (or a proxy's) id is kept so one request can be followed across services; anything
 * longer or stranger could forge log fields or smuggle text into the header echoed back.
 */
const SANE_REQUEST_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && SANE_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * One line per request, written when the reply is finished (Fastify's default is two, the first
 * with the raw URL). Errors themselves are logged by HttpExceptionFilter, only for 5xx.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
      ip: request.ip,
    };
    if (error) reply.log.warn({ ...line, err: error }, 'request ended with an error');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request failed');
    else logFlatInfo(reply.log as Logger, line, 'request completed');
  }

  /** 4xx errors are the caller's: the request line already says which. */
  override defaultErrorLog(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
    if (reply.statusCode >= 500) reply.log.error({ err: error }, 'request failed');
  }
}

/** Echoes the request id, so a user's report ("request 4f1c… failed") finds the log lines. */
export function registerRequestId(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    done();
  });
}
