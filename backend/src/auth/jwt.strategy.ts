import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { AdminPolicy } from '../admin/admin-policy';
import { JWT_SECRET } from '../config/config.module';
import { UsersRepository } from '../users/users.repository';
import type { AuthUser } from './auth-user';
import { TOKEN_LIFETIME_SECONDS, type TokenPayload } from './token-payload';
import { cacheVerifiedTokens } from './verified-token-cache';

/**
 * RFC 6750's `Bearer <token>` and nothing else: passport-jwt's own extractor takes the first two
 * words of the header and ignores the rest, so `Bearer <token> <anything>` would pass.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

function bearerToken(request: { headers: Record<string, string | string[] | undefined> }): string | null {
  const header = request.headers.authorization;
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/** As it arrives: signed by us, but typed only by what we check here. */
type ReceivedPayload = { [K in keyof TokenPayload | 'exp']?: unknown };

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(JWT_SECRET) secret: string,
    private readonly users: UsersRepository,
    private readonly adminPolicy: AdminPolicy,
  ) {
    super({
      jwtFromRequest: bearerToken,
      // A KeyObject built once: given the string, jsonwebtoken builds one on every request, which
      // was a fifth of the CPU of an authenticated write (docs/performance.md). passport-jwt hands
      // it to jsonwebtoken untouched, which accepts a KeyObject; only its typings say string|Buffer.
      secretOrKey: createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer,
      // Only HS256: refuses alg "none" and RS/HS confusion.
      algorithms: ['HS256'],
      ignoreExpiration: false,
      // However late its exp, no token lives longer than the 30 days we issue them for (and one
      // without iat is refused).
      jsonWebTokenOptions: { maxAge: TOKEN_LIFETIME_SECONDS },
    });
    cacheVerifiedTokens();
  }

  /**
   * The account is read on every call so a role change, a removed account or a sign-out of every
   * device (a raised token_version) counts at once.
   */
  async validate(payload: ReceivedPayload): Promise<AuthUser | false> {
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
