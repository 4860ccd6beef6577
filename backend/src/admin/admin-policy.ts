import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@techit/contract/enums';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * Who is an admin: those granted with `npm run admin -- grant` (stored role) and those named in
 * ADMIN_USERNAMES, so a fresh install can name its first admin before any account exists.
 */
@Injectable()
export class AdminPolicy {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  roleOf(user: { user_name: string; role: string }): Role {
    return user.role === 'admin' || this.config.adminUserNames.has(user.user_name.toLowerCase()) ? 'admin' : 'user';
  }
}
