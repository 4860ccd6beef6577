import { createSecretKey } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AdminPolicy } from '../admin/admin-policy';
import { JWT_SECRET } from '../config/config.module';
import { UsersRepository } from '../users/users.repository';
import type { AuthUser } from './auth-user';

interface TokenPayload {
  sub?: unknown;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy) {
  constructor(
    @Inject(JWT_SECRET) secret: string,
    private readonly users: UsersRepository,
    private readonly adminPolicy: AdminPolicy,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject built once: given the string, jsonwebtoken builds one on every request, which
      // was a fifth of the CPU of an authenticated write (docs/performance.md). passport-jwt hands
      // it to jsonwebtoken untouched, which accepts a KeyObject; only its typings say string|Buffer.
      secretOrKey: createSecretKey(Buffer.from(secret, 'utf8')) as unknown as Buffer,
      // Only HS256: refuses alg "none" and RS/HS confusion.
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** The account is read on every call so a role change or a removed account counts at once. */
  async validate(payload: TokenPayload): Promise<AuthUser | false> {
    if (typeof payload.sub !== 'string') return false;
    const user = await this.users.findById(payload.sub);
    if (!user) return false;
    return { id: user.id, userName: user.user_name, role: this.adminPolicy.roleOf(user) };
  }
}
