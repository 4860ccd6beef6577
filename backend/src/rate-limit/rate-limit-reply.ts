import { ThrottlerException, type ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';

/** What the storage answers for one hit (the package does not export its name for it). */
export type RateLimitRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers, in the separate-fields form most clients
 * read: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds), plus Retry-After
 * (seconds) on a 429. A request can count against two limits (the API-wide one and its route's);
 * the headers describe the one closest to refusing, so a client that paces itself by them is
 * never refused.
 */
export function reportRateLimit(reply: FastifyReply, limit: number, record: RateLimitRecord): void {
  const remaining = record.isBlocked ? 0 : Math.max(0, limit - record.totalHits);
  const reset = record.isBlocked ? Math.max(1, record.timeToBlockExpire) : Math.max(0, record.timeToExpire);
  const shownRemaining = Number(reply.getHeader('ratelimit-remaining'));
  const shownReset = Number(reply.getHeader('ratelimit-reset'));
  const tighter =
    !reply.hasHeader('ratelimit-remaining') ||
    remaining < shownRemaining ||
    (remaining === shownRemaining && reset > shownReset);
  if (tighter) {
    void reply
      .header('RateLimit-Limit', limit)
      .header('RateLimit-Remaining', remaining)
      .header('RateLimit-Reset', reset);
  }
  if (record.isBlocked) {
    const wait = Number(reply.getHeader('ratelimit-reset'));
    void reply.header('Retry-After', wait);
    throw tooManyRequests(wait);
  }
}

/** An HttpException, so the one exception filter renders it as `{ error }` with status 429. */
function tooManyRequests(seconds: number): ThrottlerException {
  return new ThrottlerException(`Too many requests; please try again in ${seconds} second${seconds === 1 ? '' : 's'}`);
}
