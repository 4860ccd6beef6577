import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user';
import { bearerToken, TokenAccounts } from '../auth/token-accounts';
import { NO_OTHER_INSTANCES, OWN_WRITE_MARKS, type OwnWriteMarks } from './own-write-marks';
import { type ReaderState, ReaderStateRepository } from './reader-state.repository';

/**
 * Who a signed-in read is for and what of theirs it shows, for the signed-in read cache
 * (http/signed-in-read-cache.ts, docs/decisions/051-signed-in-read-cache.md).
 */
@Injectable()
export class ReaderStateService {
  constructor(
    private readonly accounts: TokenAccounts,
    private readonly state: ReaderStateRepository,
    @Inject(OWN_WRITE_MARKS) private readonly marks: OwnWriteMarks,
  ) {}

  /**
   * The member a request's token is for, when a cached reply may be theirs: a token verified
   * before (else passport-jwt verifies it in Nest), an account that still accepts it, a member
   * (moderators and admins see removed content whole), who wrote nothing on another instance
   * within the cache's lifetime. Null: let Nest build the reply.
   */
  async cacheableReader(authorization: string | string[] | undefined): Promise<AuthUser | null> {
    const token = bearerToken(authorization);
    const reader = token === null ? null : await this.accounts.ofVerifiedToken(token);
    if (!reader || reader.role !== 'user') return null;
    return (await this.marks.wroteRecently(reader.id)) ? null : reader;
  }

  stateAmong(userId: string, postIds: readonly string[]): Promise<ReaderState> {
    return this.state.stateAmong(userId, postIds);
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
