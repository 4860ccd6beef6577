import 'reflect-metadata';
import type { Role } from '@techit/contract/enums';
import { withCliAppContext } from '../common/cli-app-context';
import { UsersService } from '../users/users.service';

const USAGE =
  'Usage: npm run admin -- grant <userName> | revoke <userName> | grant-moderator <userName> | revoke-moderator <userName>';

/** The stored role each command sets; `revoke-moderator` only takes back a moderator's. */
const COMMANDS: Record<string, { role: Role; from?: Role }> = {
  grant: { role: 'admin' },
  revoke: { role: 'user' },
  'grant-moderator': { role: 'moderator' },
  'revoke-moderator': { role: 'user', from: 'moderator' },
};

/**
 * `npm run admin -- grant|revoke|grant-moderator|revoke-moderator <userName>`: the stored role,
 * beside ADMIN_USERNAMES. 'user' is the "member" (docs/decisions/047-moderation.md).
 */
async function main(): Promise<void> {
  const [command, userName] = process.argv.slice(2);
  const change = command === undefined ? undefined : COMMANDS[command];
  if (!change || !userName) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await withCliAppContext(async (context) => {
    const user = await context.get(UsersService).setStoredRole(userName, change.role, change.from);
    console.log(`${user.userName} now has the stored role "${change.role}" (effective role: ${user.role})`);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
