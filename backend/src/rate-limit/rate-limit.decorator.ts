import { applyDecorators, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../common/api-errors.decorator';
import type { RateLimitName } from '../config/app-config';

/** The limits a route opts into; `api` is not one of them, it covers every API request already. */
export type RouteRateLimitName = Exclude<RateLimitName, 'api'>;
export const ROUTE_RATE_LIMITS: readonly RouteRateLimitName[] = [
  'signIn',
  'signInUserName',
  'signUp',
  'upload',
  'content',
  'likeFollow',
  'drafts',
  'preview',
  'reports',
  'passwordReset',
  'passwordResetEmail',
];

const RATE_LIMITS_METADATA = 'techit:rate-limits';

/**
 * Counts the route against the named limits (RATE_LIMIT_* settings) on top of the API-wide one.
 * Routes that share a name share one budget: a comment and a post both spend `content`.
 */
export function RateLimit(...names: RouteRateLimitName[]): MethodDecorator {
  return applyDecorators(
    SetMetadata(RATE_LIMITS_METADATA, names),
    ApiTooManyRequestsResponse({
      description: 'Too many requests: wait the Retry-After header’s seconds',
      type: ErrorResponse,
    }),
  );
}

export function routeRateLimits(reflector: Reflector, context: ExecutionContext): readonly RouteRateLimitName[] {
  return reflector.get<RouteRateLimitName[] | undefined>(RATE_LIMITS_METADATA, context.getHandler()) ?? [];
}
