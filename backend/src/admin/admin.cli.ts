import 'reflect-metadata';
import { withCliAppContext } from '../common/cli-app-context';
import { UsersService } from '../users/users.service';

const USAGE = 'Usage: npm run admin -- grant <userName> | revoke <userName>';

/** `npm run admin -- grant|revoke <userName>`: the stored admin role, beside ADMIN_USERNAMES. */
async function main(): Promise<void> {
  const [command, userName] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !userName) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await withCliAppContext(async (context) => {
    const role = command === 'grant' ? 'admin' : 'user';
    const user = await context.get(UsersService).setStoredRole(userName, role);
    console.log(`${user.userName} now has the stored role "${role}" (effective role: ${user.role})`);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
