import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { JWT_SECRET } from '../config/config.module';
import type { AuthUser } from './auth-user';
import { bearerToken, type ReceivedPayload, TokenAccounts } from './token-accounts';
import { TOKEN_LIFETIME_SECONDS } from './token-payload';

interface BearerRequest {
  headers: Record<string, string | string[] | undefined>;
}

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
  constructor(
    @Inject(JWT_SECRET) secret: string,
    private readonly accounts: TokenAccounts,
  ) {
    super({
      jwtFromRequest: (request: BearerRequest) => bearerToken(request.headers.authorization),
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
    const token = bearerToken(request.headers.authorization);
    const payload = token === null ? undefined : this.accounts.verifiedTokens.get(token);
    if (payload === undefined) {
      super.authenticate(request as never, options);
      return;
    }
    this.accounts.accountOf(payload).then(
      (user) => (user ? this.success(user) : this.fail(undefined, 401)),
      (error: unknown) => this.error(error as Error),
    );
  }

  /** Called by passport-jwt once its verifier has accepted the request's token. */
  async validate(request: BearerRequest, payload: ReceivedPayload): Promise<AuthUser | false> {
    const token = bearerToken(request.headers.authorization);
    if (token !== null) this.accounts.verifiedTokens.remember(token, payload);
    return this.accounts.accountOf(payload);
  }
}
