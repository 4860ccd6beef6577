import 'reflect-metadata';
import type { Role } from '@techit/contract/enums';
import { withCliAppContext } from '../common/cli-app-context';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PasswordResetService } from '../password-reset/password-reset.service';
import { UsersService } from '../users/users.service';

const USAGE =
  'Usage: npm run admin -- grant <userName> | revoke <userName> | grant-moderator <userName> | revoke-moderator <userName> | reset-password <userName>';

/** The stored role each role command sets; `revoke-moderator` only takes back a moderator's. */
const ROLE_COMMANDS: Record<string, { role: Role; from?: Role }> = {
  grant: { role: 'admin' },
  revoke: { role: 'user' },
  'grant-moderator': { role: 'moderator' },
  'revoke-moderator': { role: 'user', from: 'moderator' },
};

/**
 * `npm run admin -- grant|revoke|grant-moderator|revoke-moderator <userName>`: the stored role,
 * beside ADMIN_USERNAMES. 'user' is the "member" (docs/decisions/047-moderation.md).
 * `npm run admin -- reset-password <userName>`: prints a one-time password reset link (valid an
 * hour), for sites without SMTP or a user who lost access to their mailbox (docs/decisions/050).
 */
async function main(): Promise<void> {
  const [command, userName] = process.argv.slice(2);
  const change = command === undefined ? undefined : ROLE_COMMANDS[command];
  if ((!change && command !== 'reset-password') || !userName) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await withCliAppContext(async (context) => {
    if (!change) {
      const config = context.get<AppConfig>(APP_CONFIG);
      // No request to take the origin from: PUBLIC_URL, else this machine's own server.
      const origin = config.publicUrl ?? `http://localhost:${config.port}`;
      const reset = await context.get(PasswordResetService).linkFor(userName, origin);
      console.log(
        `A one-time link for ${reset.userName} to choose a new password (valid until ${reset.expiresAt}; pass it on privately):\n${reset.link}`,
      );
      if (!config.publicUrl) console.log(`(PUBLIC_URL is not set: replace ${origin} with the site's address.)`);
      return;
    }
    const user = await context.get(UsersService).setStoredRole(userName, change.role, change.from);
    console.log(`${user.userName} now has the stored role "${change.role}" (effective role: ${user.role})`);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
