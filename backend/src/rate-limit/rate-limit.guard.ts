import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerRequest } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { routeRateLimits } from './rate-limit.decorator';
import { reportRateLimit } from './rate-limit-reply';

/**
 * @nestjs/throttler's guard, global, for the routes marked with @RateLimit: it runs each of their
 * named limits (the module's throttlers skip every route not marked with their name) and answers
 * through reportRateLimit, so its headers and 429 are the same as the API-wide hook's.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(routeRateLimits(this.reflector, context).length === 0);
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = request;
    const { req, res } = this.getRequestResponse(context);
    const name = throttler.name ?? 'default';
    const key = generateKey(context, await getTracker(req, context), name);
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, name);
    reportRateLimit(res as FastifyReply, limit, record);
    return true;
  }
}
