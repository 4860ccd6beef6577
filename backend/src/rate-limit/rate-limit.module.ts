import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { ThrottlerModule, type ThrottlerOptions } from '@nestjs/throttler';
import type { AppConfig, RateLimitRules } from '../config/app-config';
import { JWT_SECRET } from '../config/config.module';
import { ROUTE_RATE_LIMITS, routeRateLimits, type RouteRateLimitName } from './rate-limit.decorator';
import { RateLimitGuard } from './rate-limit.guard';
import {
  inMemoryRateLimitStorage,
  RATE_LIMIT_STORAGE,
  type RateLimitStorage,
  RateLimitStorageModule,
  rateLimitKey,
} from './rate-limit-storage';
import { RateLimitTrackers, type TrackedRequest } from './rate-limit-trackers';
import { redisRateLimitStorage } from './redis-rate-limit-storage';

/**
 * The routes' limits (sign-in, sign-up, upload, content, likes and follows) as a global guard;
 * the API-wide limit is a Fastify hook (api-rate-limit.hook.ts) so that replies served before
 * Nest (the read cache) count too. With RATE_LIMITS=off nothing is registered at all.
 * `storage` is the seam for a shared store when several instances run (docs/decisions/010):
 * Redis when REDIS_URL is set (docs/decisions/015).
 */
@Module({})
export class RateLimitModule {
  static forRoot(
    config: AppConfig,
    storage: Provider = config.redisUrl ? redisRateLimitStorage(config.redisUrl) : inMemoryRateLimitStorage,
  ): DynamicModule {
    const rules = config.rateLimits;
    if (!rules) return { module: RateLimitModule };
    return {
      module: RateLimitModule,
      imports: [
        ThrottlerModule.forRootAsync({
          imports: [RateLimitStorageModule.with(storage)],
          inject: [RATE_LIMIT_STORAGE, JWT_SECRET, Reflector],
          useFactory: (store: RateLimitStorage, jwtSecret: string, reflector: Reflector) => ({
            storage: store,
            generateKey: (_context, tracker, name) => rateLimitKey(name, tracker),
            throttlers: routeThrottlers(rules, new RateLimitTrackers(jwtSecret), reflector),
          }),
        }),
      ],
      providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
    };
  }
}

function routeThrottlers(rules: RateLimitRules, trackers: RateLimitTrackers, reflector: Reflector): ThrottlerOptions[] {
  const trackerOf: Record<RouteRateLimitName, (request: TrackedRequest) => string | null> = {
    signIn: (request) => trackers.ip(request),
    signInUserName: (request) => trackers.userName(request),
    signUp: (request) => trackers.ip(request),
    upload: (request) => trackers.userOrIp(request),
    content: (request) => trackers.userOrIp(request),
    likeFollow: (request) => trackers.userOrIp(request),
    drafts: (request) => trackers.userOrIp(request),
    preview: (request) => trackers.userOrIp(request),
    reports: (request) => trackers.userOrIp(request),
    passwordReset: (request) => trackers.ip(request),
    passwordResetEmail: (request) => trackers.email(request),
  };
  return ROUTE_RATE_LIMITS.map((name) => {
    const windowMs = rules[name].windowSeconds * 1000;
    return {
      name,
      limit: rules[name].limit,
      ttl: windowMs,
      // Refused for the rest of the window that was overrun; refused requests do not extend it.
      blockDuration: windowMs,
      skipIf: (context) =>
        !routeRateLimits(reflector, context).includes(name) ||
        // A sign-in that names no account is still counted by its address.
        (name === 'signInUserName' &&
          trackers.userName(context.switchToHttp().getRequest<TrackedRequest>()) === null) ||
        // Likewise a reset request without an email (refused 400 by validation anyway).
        (name === 'passwordResetEmail' && trackers.email(context.switchToHttp().getRequest<TrackedRequest>()) === null),
      getTracker: (request) => trackerOf[name](request as TrackedRequest) ?? '',
    };
  });
}
