import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** One statement on a PostgreSQL server (CREATE/DROP SCHEMA or DATABASE), on a connection of its own. */
export async function runOnPostgres(serverUrl: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`Cannot reach PostgreSQL at ${redactUrl(serverUrl)}: ${String(error)}`);
  }
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A URL fit for a log line: no password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

export interface PostgresSchema {
  /** The server's URL with search_path set to the schema: every unqualified name resolves inside it. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A schema of its own on a shared PostgreSQL server: far cheaper than CREATE DATABASE (which copies
 * a template through the WAL), so many test files can start at once. search_path makes every
 * unqualified table name, migrations included, resolve inside it.
 */
export async function createPostgresSchema(serverUrl: string, prefix = 'techit_test'): Promise<PostgresSchema> {
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await runOnPostgres(serverUrl, `CREATE SCHEMA ${name}`);
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  return { url: url.toString(), name, drop: () => runOnPostgres(serverUrl, `DROP SCHEMA IF EXISTS ${name} CASCADE`) };
}

/**
 * Where a server keeps its data: a fresh DATA_DIR (SQLite file, uploads) and, when
 * TEST_DATABASE_URL is set, a fresh PostgreSQL schema. It outlives a server, so a test can kill
 * one and start the next on the same data.
 */
export interface DataSandbox {
  dataDir: string;
  /** The schema's URL for DATABASE_URL; null on SQLite. */
  databaseUrl: string | null;
  dialect: 'sqlite' | 'postgres';
  remove(): Promise<void>;
}

/** `label` names the temporary folder and the schema, so a leftover one says which suite left it. */
export async function createDataSandbox(label: string): Promise<DataSandbox> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const schema = serverUrl ? await createPostgresSchema(serverUrl, `techit_${label}`) : null;
  const dataDir = mkdtempSync(join(tmpdir(), `techit-${label}-`));
  return {
    dataDir,
    databaseUrl: schema?.url ?? null,
    dialect: schema ? 'postgres' : 'sqlite',
    async remove() {
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
