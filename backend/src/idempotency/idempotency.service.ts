import { Injectable } from '@nestjs/common';
import { ConflictError, UnprocessableEntityError } from '../common/app-errors';
import { IdempotencyRepository, type KeyId } from './idempotency.repository';

/** A key answers the same for this long (docs/decisions/022-idempotency-keys.md). */
export const KEY_LIFETIME_MS = 24 * 3_600_000;
/**
 * A claim still unfinished after this long belongs to a request that died with its process (every
 * request is cut long before: REQUEST_TIMEOUT_MS, the statement timeout); the next request with
 * the key takes it over rather than being told "in progress" for a day.
 */
export const ABANDONED_CLAIM_MS = 5 * 60_000;
/** Expired keys are deleted by the instance that notices, at most this often. */
const SWEEP_EVERY_MS = 3_600_000;

export type Begun = { kind: 'claimed' } | { kind: 'replay'; status: number; body: unknown };

/**
 * The rules of Idempotency-Key on the creating routes: the first request with a key claims it and
 * runs; a later one with the same key and the same request gets the first one's reply; with
 * another request, 422; while the first is still running, 409. The claim is a row in the database,
 * so every instance behind a load balancer sees it.
 */
@Injectable()
export class IdempotencyService {
  private lastSweep = 0;

  constructor(private readonly keys: IdempotencyRepository) {}

  async begin(id: KeyId, requestHash: string): Promise<Begun> {
    await this.sweepExpired();
    // A claimed row can vanish between the insert and the read (its request failed and released
    // it); a few rounds settle that.
    for (let round = 0; round < 3; round += 1) {
      const now = new Date();
      if (await this.keys.claim(id, requestHash, now.toISOString())) return { kind: 'claimed' };
      const row = await this.keys.find(id);
      if (!row) continue;
      const age = now.getTime() - Date.parse(row.created_at);
      const expired = age >= KEY_LIFETIME_MS;
      const abandoned = row.status === null && age >= ABANDONED_CLAIM_MS;
      if (expired || abandoned) {
        if (await this.keys.takeOver(id, row.created_at, requestHash, now.toISOString())) return { kind: 'claimed' };
        continue;
      }
      if (row.request_hash !== requestHash) {
        throw new UnprocessableEntityError(
          'This Idempotency-Key was already used for a different request; send a new key with a new request',
        );
      }
      if (row.status === null || row.response === null) {
        throw new ConflictError('A request with this Idempotency-Key is still in progress; try again in a moment');
      }
      return { kind: 'replay', status: row.status, body: JSON.parse(row.response) as unknown };
    }
    throw new ConflictError('A request with this Idempotency-Key is still in progress; try again in a moment');
  }

  complete(id: KeyId, status: number, body: unknown): Promise<void> {
    return this.keys.complete(id, status, JSON.stringify(body));
  }

  /** The request failed (bad input, a missing post…): nothing was created, so the key is free again. */
  release(id: KeyId): Promise<void> {
    return this.keys.release(id);
  }

  private async sweepExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.keys.deleteOlderThan(new Date(now - KEY_LIFETIME_MS).toISOString());
  }
}
