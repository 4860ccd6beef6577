import { type ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { TokenExpiredError } from '@nestjs/jwt';
import { UnauthorizedError } from '../common/app-errors';
import type { AuthUser } from './auth-user';

/*
 * The two guards, both on JwtStrategy (jwt.strategy.ts: the bearer token, its signature, the
 * account and its token_version):
 *
 *   token in the request           JwtAuthGuard                      OptionalJwtAuthGuard
 *   none                           401 "Please log in to do that"    visitor (no header at all: Passport not run)
 *   expired                        401 "Your session has expired…"   visitor
 *   bad, or its account changed    401 "Your session is not valid…"  visitor
 *   valid                          request.user                      request.user
 *
 * A visitor is `request.user === null`; @CurrentUser() gives the user or null. An error that is no
 * verdict on the token (the database down) fails the request in both.
 */

/** Requires a valid bearer token; answers 401 with a reason a person understands. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  override handleRequest<T = AuthUser>(error: unknown, user: T | false, info: unknown): T {
    if (error instanceof Error) throw error;
    if (user) return user;
    if (info instanceof TokenExpiredError) throw new UnauthorizedError('Your session has expired; please log in again');
    if (info instanceof Error && info.message === 'No auth token')
      throw new UnauthorizedError('Please log in to do that');
    throw new UnauthorizedError('Your session is not valid; please log in again');
  }
}

/**
 * For calls visitors may make too (feeds, top posts): a valid token identifies the viewer, and a
 * missing or stale one is treated as a visitor rather than failing a page that needs no login.
 */
@Injectable()
export class OptionalJwtAuthGuard extends AuthGuard('jwt') {
  /** Most readers send no token: they skip Passport altogether (it showed in the feed's profile). */
  override canActivate(context: ExecutionContext) {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: unknown }>();
    if (request.headers.authorization === undefined) {
      request.user = null;
      return true;
    }
    return super.canActivate(context);
  }

  override handleRequest<T = AuthUser>(error: unknown, user: T | false): T {
    if (error instanceof Error) throw error;
    return (user || null) as T;
  }
}
