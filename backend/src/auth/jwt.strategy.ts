import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { AdminPolicy } from '../admin/admin-policy';
import { JWT_SECRET } from '../config/config.module';
import { UsersRepository } from '../users/users.repository';
import type { AuthUser } from './auth-user';
import { TOKEN_LIFETIME_SECONDS, type TokenPayload } from './token-payload';
import { VerifiedTokenCache } from './verified-token-cache';

/**
 * RFC 6750's `Bearer <token>` and nothing else: passport-jwt's own extractor takes the first two
 * words of the header and ignores the rest, so `Bearer <token> <anything>` would pass.
 */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

interface BearerRequest {
  headers: Record<string, string | string[] | undefined>;
}

function bearerToken(request: BearerRequest): string | null {
  const header = request.headers.authorization;
  return typeof header === 'string' ? (BEARER.exec(header)?.[1] ?? null) : null;
}

/** As it arrives: signed by us, but typed only by what we check here. */
type ReceivedPayload = { [K in keyof TokenPayload | 'exp']?: unknown };

/**
 * How a bearer token becomes `request.user`, for JwtAuthGuard and OptionalJwtAuthGuard
 * (jwt-auth.guard.ts):
 *
 * 1. `bearerToken` takes the token from the Authorization header (none: "No auth token").
 * 2. A token verified before and still in date comes from `verifiedTokens`; any other goes to
 *    passport-jwt, which verifies it with jsonwebtoken (HS256 only, exp, the 30-day maxAge) and
 *    then calls `validate`, which remembers it.
 * 3. `accountOf` reads the account on every request; no account or another token_version fails.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  private readonly verifiedTokens = new VerifiedTokenCache(TOKEN_LIFETIME_SECONDS);

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
      // validate gets the request, to remember the token the library has just verified.
      passReqToCallback: true,
    });
  }

  /**
   * passport-jwt's authenticate, except that a token verified before and still in date skips the
   * signature check; what follows it is the library's own: error, fail, or success with the user.
   */
  override authenticate(request: BearerRequest, options?: unknown): void {
    const token = bearerToken(request);
    const payload = token === null ? undefined : this.verifiedTokens.get(token);
    if (payload === undefined) {
      super.authenticate(request as never, options);
      return;
    }
    this.accountOf(payload).then(
      (user) => (user ? this.success(user) : this.fail(undefined, 401)),
      (error: unknown) => this.error(error as Error),
    );
  }

  /** Called by passport-jwt once its verifier has accepted the request's token. */
  async validate(request: BearerRequest, payload: ReceivedPayload): Promise<AuthUser | false> {
    const token = bearerToken(request);
    if (token !== null) this.verifiedTokens.remember(token, payload);
    return this.accountOf(payload);
  }

  /**
   * The account is read on every call so a role change, a removed account or a sign-out of every
   * device (a raised token_version) counts at once.
   */
  private async accountOf(payload: ReceivedPayload): Promise<AuthUser | false> {
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
