import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { SignInReply } from '@techit/contract/api-types';
import { DEFAULT_THEME } from '@techit/contract/enums';
import { DEFAULT_PROFILE_PIC } from '@techit/contract/limits';
import { ConflictError, ForbiddenError, UnauthorizedError } from '../common/app-errors';
import { MODERATION } from '@techit/contract/limits';
import { newObjectId } from '../common/object-id';
import { UsersRepository } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import type { SignInDto } from './dto/sign-in.dto';
import type { SignUpDto } from './dto/sign-up.dto';
import { PasswordHasher } from './password-hasher';
import type { TokenPayload } from './token-payload';

const BAD_CREDENTIALS = 'Invalid username or password';

@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly jwt: JwtService,
  ) {}

  async signUp(input: SignUpDto): Promise<void> {
    await this.assertAvailable(input.userName, input.email);
    const now = new Date();
    try {
      await this.users.insert({
        id: newObjectId(now),
        user_name: input.userName,
        email: input.email,
        password_hash: await this.hasher.hash(input.password),
        pic: input.pic ?? DEFAULT_PROFILE_PIC,
        position: '',
        bio: '',
        theme: DEFAULT_THEME,
        role: 'user',
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        token_version: 0,
      });
    } catch (error) {
      // Two sign-ups racing for the same name: the unique index decides, the loser gets 409.
      await this.assertAvailable(input.userName, input.email);
      throw error;
    }
  }

  async signIn(input: SignInDto): Promise<SignInReply> {
    const user = await this.users.findByLogin(input.userName);
    // Verify even for an unknown user, so the reply time does not reveal which accounts exist.
    const valid = await this.hasher.verify(user?.password_hash ?? null, input.password);
    if (!user || !valid) throw new UnauthorizedError(BAD_CREDENTIALS);
    // Only once the password is right, so the refusal tells nothing to someone guessing.
    if (user.suspended_until !== null && user.suspended_until > new Date().toISOString()) {
      throw new ForbiddenError(
        user.suspended_until === MODERATION.suspendedIndefinitely
          ? 'Your account is suspended indefinitely'
          : `Your account is suspended until ${user.suspended_until}`,
      );
    }
    if (this.hasher.needsRehash(user.password_hash)) {
      // An account imported from the original app (npm run import:mongo) keeps its bcrypt hash
      // until the password is known: now it is, so it is stored as argon2id from here on.
      await this.users.replacePasswordHash(user.id, user.password_hash, await this.hasher.hash(input.password));
    }
    const token = await this.tokenFor(user.id, user.token_version);
    return { token, user: await this.usersService.getMe(user.id) };
  }

  /** A session token for this account at this token_version (older versions answer 401). */
  tokenFor(userId: string, tokenVersion: number): Promise<string> {
    const payload: TokenPayload = { sub: userId, ver: tokenVersion };
    return this.jwt.signAsync(payload);
  }

  /** Every token issued so far stops working (JwtStrategy compares `ver`); signing in again gives a new one. */
  async logoutAll(userId: string): Promise<void> {
    await this.users.bumpTokenVersion(userId);
  }

  private async assertAvailable(userName: string, email: string): Promise<void> {
    const taken = await this.users.takenFields(userName, email);
    if (taken.userName)
      throw new ConflictError('That username is already taken', {
        fields: { userName: 'That user name is taken; choose another.' },
      });
    if (taken.email)
      throw new ConflictError('An account with that email already exists', {
        fields: { email: 'An account already uses this email address; log in instead.' },
      });
  }
}
