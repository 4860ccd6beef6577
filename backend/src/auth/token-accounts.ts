import { Injectable } from '@nestjs/common';
import { AdminPolicy } from '../admin/admin-policy';
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
   * The account of a token verified before and still in date, without verifying anything: null
   * when the token was never verified here (the caller lets passport-jwt do it), false when it
   * was but its account no longer accepts it.
   */
  async ofVerifiedToken(token: string): Promise<AuthUser | false | null> {
    const payload = this.verifiedTokens.get(token);
    return payload === undefined ? null : this.accountOf(payload);
  }

  /**
   * The account is read on every call so a role change, a removed account or a sign-out of every
   * device (a raised token_version) counts at once.
   */
  async accountOf(payload: ReceivedPayload): Promise<AuthUser | false> {
    // jsonwebtoken checks exp only when there is one; every token we issue has one.
    if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return false;
    // No `ver`: signed before token versions existed, which is version 0 (deploying logs nobody out).
    const version = payload.ver ?? 0;
    if (typeof version !== 'number') return false;
    const user = await this.users.findById(payload.sub);
    if (!user || user.token_version !== version) return false;
    return { id: user.id, userName: user.user_name, role: this.adminPolicy.roleOf(user) };
  }
}
