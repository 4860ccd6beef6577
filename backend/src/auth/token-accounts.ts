import { Injectable } from '@nestjs/common';
import { AdminPolicy } from '../admin/admin-policy';
import type { UserRow } from '../database/database.types';
import { UsersRepository } from '../users/users.repository';
import type { AuthUser } from './auth-user';
import { TOKEN_LIFETIME_SECONDS, type TokenPayload } from './token-payload';
import { VerifiedTokenCache } from './verified-token-cache';

/**
 * RFC 6750's `Bearer <token>` and nothing else: passport-jwt's own extractor takes the first two
 * words of the header and ignores the rest, so `Bearer <token> <anything>` would pass.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** The token of an Authorization header, or null when it is not exactly `Bearer <token>`. */
export function bearerToken(header: string | string[] | undefined): string | null {
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/** As it arrives: signed by us, but typed only by what we check here. */
export type ReceivedPayload = { [K in keyof TokenPayload | 'exp']?: unknown };

/**
 * From a verified token to its account, for the two places that authenticate a request: the JWT
 * strategy (every guarded route) and the signed-in read cache, which answers before Nest runs
 * (http/signed-in-read-cache.ts). One copy of the rules, one cache of verified tokens.
 */
@Injectable()
export class TokenAccounts {
  /** Tokens passport-jwt verified (decision 020): shared, so a cached read needs no second check. */
  readonly verifiedTokens = new VerifiedTokenCache(TOKEN_LIFETIME_SECONDS);

  constructor(
    private readonly users: UsersRepository,
    private readonly adminPolicy: AdminPolicy,
  ) {}

  /**
   * The payload of a token verified before and still in date, without verifying anything, and
   * the account id it names: null when the token was never verified here (the caller lets
   * passport-jwt do it) or names no account.
   */
  verifiedPayload(token: string): { payload: ReceivedPayload; userId: string } | null {
    const payload = this.verifiedTokens.get(token) as ReceivedPayload | undefined;
    return payload !== undefined && typeof payload.sub === 'string' ? { payload, userId: payload.sub } : null;
  }

  /**
   * The account is read on every call so a role change, a removed account or a sign-out of every
   * device (a raised token_version) counts at once.
   */
  async accountOf(payload: ReceivedPayload): Promise<AuthUser | false> {
    if (typeof payload.sub !== 'string') return false;
    return this.accountFrom(payload, await this.users.findById(payload.sub));
  }

  /** The same with the account already read (by the caller's own statement): false if it refuses the token. */
  accountFrom(payload: ReceivedPayload, user: TokenAccount | undefined): AuthUser | false {
    // jsonwebtoken checks exp only when there is one; every token we issue has one.
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return false;
    // No `ver`: signed before token versions existed, which is version 0 (deploying logs nobody out).
    const version = payload.ver ?? 0;
    if (typeof version !== 'number') return false;
    if (!user || user.id !== payload.sub || Number(user.token_version) !== version) return false;
    return { id: user.id, userName: user.user_name, role: this.adminPolicy.roleOf(user) };
  }
}

/** What of an account decides whether it accepts a token, and who it is. */
export type TokenAccount = Pick<UserRow, 'id' | 'user_name' | 'role' | 'token_version'>;
