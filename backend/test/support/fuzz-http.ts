import { Agent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { snapshot, type TestApp } from './test-app';

/** A request exactly as a hostile client writes it: the path is sent byte for byte, unnormalised. */
export interface RawRequest {
  method: string;
  /** Already percent-encoded (or deliberately not): `/api/posts/..%2F%00`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** How long a reply may take before it counts as a hang (generous: the machine is shared). */
const REPLY_TIMEOUT_MS = 10_000;

/**
 * Talks plain HTTP to a listening test app. supertest would normalise `..` segments and refuse
 * some raw paths; node:http sends what it is given, which is what an attacker does.
 */
export class FuzzClient {
  private readonly agent = new Agent({ keepAlive: false });

  private constructor(private readonly port: number) {}

  /** Makes the app listen on a free loopback port (closed by the app's own close()). */
  static async listen(t: TestApp): Promise<FuzzClient> {
    await t.app.listen(0, '127.0.0.1');
    const address = t.app.getHttpServer().address() as AddressInfo;
    return new FuzzClient(address.port);
  }

  send(raw: RawRequest): Promise<RawReply> {
    return new Promise<RawReply>((resolve, reject) => {
      const body = typeof raw.body === 'string' ? Buffer.from(raw.body, 'utf8') : raw.body;
      const headers: Record<string, string | number> = { ...raw.headers };
      if (body) headers['Content-Length'] = body.length;
      let answered = false;
      const request = httpRequest(
        { host: '127.0.0.1', port: this.port, method: raw.method, path: raw.path, headers, agent: this.agent },
        (response) => {
          answered = true;
          // An event stream never ends by itself: it is judged by its status and headers.
          if (String(response.headers['content-type']).startsWith('text/event-stream')) {
            clearTimeout(timer);
            request.destroy();
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text: '' });
            return;
          }
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            clearTimeout(timer);
            resolve({ status: response.statusCode ?? 0, headers: response.headers, text: decode(response, chunks) });
          });
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        reject(new Error(`No reply within ${REPLY_TIMEOUT_MS} ms to ${describeRequest(raw)}`));
      }, REPLY_TIMEOUT_MS);
      // The server may answer (413, 431) and close before the whole body is written: the reply counts.
      request.on('error', (error) => {
        if (answered) return;
        clearTimeout(timer);
        reject(new Error(`No reply to ${describeRequest(raw)}: ${error.message}`));
      });
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function decode(response: { headers: IncomingHttpHeaders }, chunks: Buffer[]): string {
  const bytes = Buffer.concat(chunks);
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(bytes).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(bytes).toString('utf8');
  return bytes.toString('utf8');
}

export function describeRequest(raw: RawRequest): string {
  const line = `${raw.method} ${raw.path.slice(0, 200)}${raw.path.length > 200 ? '…' : ''}`;
  if (raw.body === undefined) return line;
  const text = typeof raw.body === 'string' ? raw.body : raw.body.toString('latin1');
  return `${line} body(${raw.body.length}) ${JSON.stringify(text.slice(0, 160))}`;
}

const PROTOTYPES = { Object: Object.prototype, Array: Array.prototype, Function: Function.prototype };
const PROTOTYPE_KEYS = Object.fromEntries(
  Object.entries(PROTOTYPES).map(([name, proto]) => [name, Object.getOwnPropertyNames(proto).sort().join(',')]),
);

/** Throws if any request managed to add a property to a built-in prototype (in this process: the app runs here). */
export function expectPrototypesClean(): void {
  for (const [name, proto] of Object.entries(PROTOTYPES)) {
    const keys = Object.getOwnPropertyNames(proto).sort().join(',');
    if (keys !== PROTOTYPE_KEYS[name]) throw new Error(`${name}.prototype was polluted: now has ${keys}`);
  }
  const probe: Record<string, unknown> = {};
  if (probe.polluted !== undefined || probe.isAdmin !== undefined) throw new Error('Object.prototype was polluted');
}

/**
 * The fuzzing property for one request: a reply comes (no hang); it is 2xx or 4xx (never 5xx,
 * nothing else but a 304 to a conditional GET); a 4xx is exactly `{ "error": "<text>" }`; a
 * refused request left every table as it was; no built-in prototype gained a property.
 */
export async function expectSafeReply(t: TestApp, client: FuzzClient, raw: RawRequest): Promise<RawReply> {
  const before = await snapshot(t.db);
  const reply = await client.send(raw);
  const seen = () => `${describeRequest(raw)}\n  → ${reply.status} ${reply.text.slice(0, 300)}`;
  const success = reply.status >= 200 && reply.status < 300;
  const refused = reply.status >= 400 && reply.status < 500;
  // "Not modified" is the right answer to a GET that sent If-None-Match (even `*`).
  const conditional =
    raw.method === 'GET' && Object.keys(raw.headers ?? {}).some((name) => /^if-none-match$/i.test(name));
  const notModified = conditional && reply.status === 304;
  if (!success && !refused && !notModified) throw new Error(`Expected 2xx or 4xx:\n${seen()}`);
  if (refused) {
    if (!isErrorBody(reply.text)) throw new Error(`Expected a body of exactly { "error": "<text>" }:\n${seen()}`);
    if ((await snapshot(t.db)) !== before) throw new Error(`A refused request changed the database:\n${seen()}`);
  }
  expectPrototypesClean();
  return reply;
}

function isErrorBody(text: string): boolean {
  try {
    const body: unknown = JSON.parse(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
    const keys = Object.keys(body);
    const error = (body as { error?: unknown }).error;
    return keys.length === 1 && typeof error === 'string' && error.trim().length > 0;
  } catch {
    return false;
  }
}
