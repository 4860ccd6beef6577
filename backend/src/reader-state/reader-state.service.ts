import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user';
import { bearerToken, type ReceivedPayload, TokenAccounts } from '../auth/token-accounts';
import { NO_OTHER_INSTANCES, OWN_WRITE_MARKS, type OwnWriteMarks } from './own-write-marks';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { type CacheStamp, ReaderMemo } from './reader-memo';
import { type ReaderState, ReaderStateRepository } from './reader-state.repository';

interface Claimed {
  payload: ReceivedPayload;
  userId: string;
}

/**
 * Who a signed-in read is for and what of theirs it shows, for the signed-in read cache
 * (http/signed-in-read-cache.ts, docs/decisions/053-signed-in-read-cache.md).
 */
@Injectable()
export class ReaderStateService {
  private readonly memo: ReaderMemo;

  constructor(
    private readonly accounts: TokenAccounts,
    private readonly state: ReaderStateRepository,
    @Inject(OWN_WRITE_MARKS) private readonly marks: OwnWriteMarks,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.memo = new ReaderMemo(config.readCacheTtlMs);
  }

  /**
   * Who a token says it is, when it was verified before (else passport-jwt verifies it in Nest)
   * and they wrote nothing on another instance within the cache's lifetime; null: let Nest build
   * the reply. Not yet whether their account still accepts the token: see readerAmong.
   */
  async claimedReader(authorization: string | string[] | undefined): Promise<Claimed | null> {
    const token = bearerToken(authorization);
    const claimed = token === null ? null : this.accounts.verifiedPayload(token);
    if (!claimed || (await this.marks.wroteRecently(claimed.userId))) return null;
    return claimed;
  }

  /**
   * The reader and their state among these posts, when a shared reply may be theirs: an account
   * that still accepts the token (the JWT strategy's rules), a member (moderators and admins see
   * removed content whole); `state.filters` says whether they mute or block. Null: let Nest build the reply. From one
   * statement, or none while nothing was written since the last one (ReaderMemo); `stamp`: the
   * read cache's versions now.
   */
  async readerAmong(
    claimed: Claimed,
    postIds: readonly string[],
    stamp: CacheStamp,
  ): Promise<{ reader: AuthUser; state: ReaderState } | null> {
    const known = this.memo.lookup(claimed.userId, stamp, postIds);
    const state =
      'liked' in known
        ? known
        : this.memo.remember(claimed.userId, stamp, known, await this.state.stateAmong(claimed.userId, known));
    const reader = this.accounts.accountFrom(claimed.payload, state.account);
    return reader && reader.role === 'user' ? { reader, state } : null;
  }

  /** Whether writes must be marked for other instances (REDIS_URL): see OwnWriteMarks. */
  get marksShared(): boolean {
    return this.marks !== NO_OTHER_INSTANCES;
  }

  /** After a signed-in write, before its reply: see OwnWriteMarks. */
  wrote(userId: string): Promise<void> {
    return this.marks.mark(userId);
  }
}
