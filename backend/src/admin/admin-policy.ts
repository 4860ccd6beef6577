import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@techit/contract/enums';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Moderators and admins work the report queue and see removed content whole (decision 047). */
export function canModerate(role: Role): boolean {
  return role === 'moderator' || role === 'admin';
}

/**
 * Whether `viewer` reads content the moderators removed as it was: its author and the moderators
 * do; everyone else gets the "removed by the moderators" placeholder.
 */
export function seesRemoved(viewer: { id: string; role: Role } | null, authorId: string): boolean {
  return viewer !== null && (viewer.id === authorId || canModerate(viewer.role));
}

/**
 * Who is an admin: those granted with `npm run admin -- grant` (stored role) and those named in
 * ADMIN_USERNAMES, so a fresh install can name its first admin before any account exists. A
 * stored 'moderator' is a moderator (`npm run admin -- grant-moderator`); anyone else a member,
 * whose wire value is 'user' (decision 047).
 */
@Injectable()
export class AdminPolicy {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  roleOf(user: { user_name: string; role: string }): Role {
    if (user.role === 'admin' || this.config.adminUserNames.has(user.user_name.toLowerCase())) return 'admin';
    return user.role === 'moderator' ? 'moderator' : 'user';
  }
}
