import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { reportRateLimit } from './rate-limit-reply';
import { RATE_LIMIT_STORAGE, type RateLimitStorage, rateLimitKey } from './rate-limit-storage';
import { addressTracker } from './rate-limit-trackers';

/**
 * The API-wide limit (RATE_LIMIT_API, per address) on every request under /api, unknown routes
 * and malformed bodies included. A Fastify onRequest hook rather than a guard: it must run before
 * the read cache, which answers visitors' reads without reaching Nest, and it refuses a flood
 * before any body is parsed. Register it before registerReadCache. Uploaded files and the web
 * app are not API requests and are not counted.
 */
export function registerApiRateLimit(app: NestFastifyApplication, config: AppConfig): void {
  const rule = config.rateLimits?.api;
  if (!rule) return;
  const storage = app.get<RateLimitStorage>(RATE_LIMIT_STORAGE);
  const windowMs = rule.windowSeconds * 1000;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!isApiRequest(request)) return;
      const key = rateLimitKey('api', addressTracker(request));
      reportRateLimit(reply, rule.limit, await storage.increment(key, windowMs, rule.limit, windowMs, 'api'));
    });
}

/** By the route matched and by the raw URL: either is enough (an unknown /api path matches no API route). */
function isApiRequest(request: FastifyRequest): boolean {
  const isApi = (path: string | undefined) =>
    path !== undefined && (path === '/api' || path.startsWith('/api/') || path.startsWith('/api?'));
  return isApi(request.routeOptions.url) || isApi(request.url);
}
