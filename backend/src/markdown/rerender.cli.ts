import 'reflect-metadata';
import { withCliAppContext } from '../common/cli-app-context';
import { DEFAULT_RERENDER_BATCH, RerenderService } from './rerender.service';

const USAGE = 'Usage: npm run rerender [-- --batch-size N]';

/**
 * `npm run rerender`: renders again every stored text whose HTML is missing or older than this
 * build's renderer (docs/decisions/028-stored-html.md). Safe to run while the server serves, to
 * run twice, and to kill: the next run carries on.
 */
async function main(): Promise<void> {
  const batchSize = parseBatchSize(process.argv.slice(2));
  if (batchSize === null) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  await withCliAppContext((context) =>
    context.get(RerenderService).run({ batchSize, log: (line) => console.log(line) }),
  );
}

function parseBatchSize(args: string[]): number | null {
  if (args.length === 0) return DEFAULT_RERENDER_BATCH;
  if (args.length !== 2 || args[0] !== '--batch-size' || !/^[1-9][0-9]{0,4}$/.test(args[1])) return null;
  return Number(args[1]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
