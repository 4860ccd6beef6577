import { type ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import { BackupError } from './backup-error';

/**
 * PostgreSQL's own tools do the work: `pg_dump --format=custom` takes one consistent snapshot
 * while the server keeps writing, and the restore replays it through psql in one transaction.
 * Both need the client tools (postgresql-client) of the server's major version or newer.
 */

/** How the client tools reach DATABASE_URL: the password goes in the environment, not on a command line `ps` shows. */
interface ToolConnection {
  dbname: string;
  env: NodeJS.ProcessEnv;
}

function toolConnection(databaseUrl: string): ToolConnection {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  // The schema is named explicitly to every tool; libpq would also reject pg's own options.
  url.searchParams.delete('options');
  const env: NodeJS.ProcessEnv = { ...process.env, PGAPPNAME: 'techit-backup' };
  if (password) env.PGPASSWORD = password;
  return { dbname: url.toString(), env };
}

export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function withClient<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(
      `Could not connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export interface PostgresSource {
  /** The schema the app works in (search_path), the one dumped. */
  schema: string;
  /** The newest migration applied there. */
  schemaVersion: string;
}

/** Where the app's tables live, and how far they are migrated. */
export function describeSource(databaseUrl: string): Promise<PostgresSource> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    const schema = rows[0]?.schema;
    if (!schema) throw new BackupError('The schema named by DATABASE_URL (search_path) does not exist');
    let version: string | undefined;
    try {
      const result = await client.query<{ name: string }>(
        `SELECT name FROM ${quoteIdentifier(schema)}.kysely_migration ORDER BY name DESC LIMIT 1`,
      );
      version = result.rows[0]?.name;
    } catch {
      version = undefined;
    }
    if (!version)
      throw new BackupError(`Schema "${schema}" holds no TechIt database (run the server or npm run migrate)`);
    return { schema, schemaVersion: version };
  });
}

/**
 * The schema a restore writes into: the first one search_path names, whether or not it exists
 * yet (restoring into a new database creates it), skipping "$user" when there is no such schema.
 */
export function targetSchema(databaseUrl: string): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ path: string; user: string; userSchema: boolean }>(
      `SELECT current_setting('search_path') AS path, current_user AS "user",
              EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = current_user) AS "userSchema"`,
    );
    const { path, user, userSchema } = rows[0];
    for (const entry of splitSearchPath(path)) {
      if (entry === '$user') {
        if (userSchema) return user;
      } else if (!entry.startsWith('pg_')) {
        return entry;
      }
    }
    throw new BackupError(`DATABASE_URL's search_path (${path}) names no schema to restore into`);
  });
}

/** search_path as PostgreSQL writes it: comma-separated names, some in double quotes. */
export function splitSearchPath(path: string): string[] {
  const entries: string[] = [];
  const pattern = /\s*(?:"((?:[^"]|"")*)"|([^,\s]+))\s*(?:,|$)/gy;
  let match: RegExpExecArray | null;
  while (pattern.lastIndex < path.length && (match = pattern.exec(path))) {
    entries.push(match[1] !== undefined ? match[1].replace(/""/g, '"') : match[2]);
  }
  return entries;
}

/** Dumps the schema (tables, data and the migration bookkeeping) in pg_dump's custom format. */
export async function dumpSchema(databaseUrl: string, schema: string, file: string): Promise<void> {
  const { dbname, env } = toolConnection(databaseUrl);
  const dump = spawnTool(
    'pg_dump',
    [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--schema=${quoteIdentifier(schema)}`,
      `--file=${file}`,
      `--dbname=${dbname}`,
    ],
    env,
    { input: false, output: false },
  );
  await finished(dump, 'pg_dump');
}

/**
 * Replaces the schema with the dump's, all or nothing: pg_restore writes the dump as SQL, psql
 * runs the DROP SCHEMA and all of it in one transaction. A schema left over from a later version
 * (a table a newer migration added) goes too, so the migrations that follow start clean. If
 * pg_restore fails part-way, psql is made to fail before it can commit.
 */
export async function restoreSchema(databaseUrl: string, schema: string, dumpFile: string): Promise<void> {
  const { dbname, env } = toolConnection(databaseUrl);
  const psql = spawnTool(
    'psql',
    [
      '--no-psqlrc',
      '--quiet',
      '--set=ON_ERROR_STOP=1',
      '--single-transaction',
      `--command=DROP SCHEMA IF EXISTS ${quoteIdentifier(schema)} CASCADE`,
      '--file=-',
      `--dbname=${dbname}`,
    ],
    { ...env, PGOPTIONS: '-c client_min_messages=warning' },
    { input: true, output: false },
  );
  const script = spawnTool('pg_restore', ['--no-owner', '--no-privileges', '--file=-', dumpFile], env, {
    input: false,
    output: true,
  });
  const psqlDone = finished(psql, 'psql');
  // psql may fail early (a refused connection): then pg_restore, whose output nobody reads any
  // more, is stopped rather than left blocked on a full pipe.
  psqlDone.catch(() => {
    if (script.exitCode === null) script.kill();
  });
  psql.stdin!.on('error', () => undefined);
  script.stdout!.pipe(psql.stdin!, { end: false });
  try {
    await finished(script, 'pg_restore');
    psql.stdin!.end();
  } catch (error) {
    psql.stdin!.end("DO $$ BEGIN RAISE EXCEPTION 'pg_restore failed: nothing restored'; END $$;\n");
    await psqlDone.catch(() => undefined);
    throw error;
  }
  await psqlDone;
}

function spawnTool(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  streams: { input: boolean; output: boolean },
): ChildProcess {
  return spawn(command, args, {
    env,
    stdio: [streams.input ? 'pipe' : 'ignore', streams.output ? 'pipe' : 'ignore', 'pipe'],
  });
}

/** Resolves when the tool exits 0; otherwise rejects with what it printed on stderr. */
function finished(child: ChildProcess, name: string): Promise<void> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    if (stderr.length < 4000) stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new BackupError(`${name} was not found: install the PostgreSQL client tools (postgresql-client)`)
          : error,
      );
    });
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new BackupError(`${name} failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no message'}`));
    });
  });
}
