import { type DynamicModule, Module, type Provider } from '@nestjs/common';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';

/**
 * Where the limiter keeps its counters: anything implementing @nestjs/throttler's ThrottlerStorage
 * (one atomic `increment` per hit). Both the route guard and the API-wide hook count through it.
 */
export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
export type RateLimitStorage = ThrottlerStorage;

/**
 * The default: counters in this process's memory, so every instance counts on its own. Several
 * instances behind one proxy need a shared store: provide a Redis-backed ThrottlerStorage under
 * RATE_LIMIT_STORAGE instead and pass it to RateLimitModule.forRoot (docs/decisions/010).
 */
export const inMemoryRateLimitStorage: Provider = { provide: RATE_LIMIT_STORAGE, useClass: ThrottlerStorageService };

/** Holds the chosen storage so ThrottlerModule's options factory can be handed it. */
@Module({})
export class RateLimitStorageModule {
  static with(storage: Provider): DynamicModule {
    return { module: RateLimitStorageModule, providers: [storage], exports: [RATE_LIMIT_STORAGE] };
  }
}

/** One counter per limit and tracker (`content:user:<id>`, `api:ip:203.0.113.9`), readable in a shared store. */
export function rateLimitKey(limitName: string, tracker: string): string {
  return `${limitName}:${tracker}`;
}
