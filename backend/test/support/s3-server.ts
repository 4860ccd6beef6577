import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';

/** The part of s3rver (an S3-compatible server in Node, no type declarations) the tests use. */
interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverInstance;

const S3rver = createRequire(__filename)('s3rver') as S3rverConstructor;

/** s3rver's one built-in account. */
const ACCESS_KEY = 'S3RVER';

/**
 * A real S3-compatible server in this process (s3rver) on a free loopback port, its objects in a
 * temporary folder: S3 API with signature checks, and anonymous GETs as a public bucket serves
 * them. It can be stopped and started again on the same port and data.
 */
export interface S3Server {
  bucket: string;
  /** The S3_* settings for the app. */
  settings: Record<string, string>;
  publicUrl: string;
  /** A client of the test's own, for looking at the objects. */
  client: S3Client;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

export async function startS3Server(bucket = 'techit-test'): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'techit-s3-'));
  const create = (port: number) =>
    new S3rver({ address: '127.0.0.1', port, directory, silent: true, configureBuckets: [{ name: bucket }] });
  let server = create(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const publicUrl = `${endpoint}/${bucket}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    bucket,
    publicUrl,
    client,
    settings: {
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_PUBLIC_URL: publicUrl,
    },
    async stop() {
      if (running) await server.close();
      running = false;
    },
    async start() {
      server = create(port);
      await server.run();
      running = true;
    },
    async remove() {
      client.destroy();
      if (running) await server.close();
      running = false;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
