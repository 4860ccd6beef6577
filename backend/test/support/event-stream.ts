import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** One Server-Sent Events block as the client reads it. */
export interface SseBlock {
  event?: string;
  id?: string;
  data?: string;
  retry?: number;
  /** A comment line (`: ping`). */
  comment?: string;
}

/**
 * A real HTTP client on a listening app, reading a stream as it arrives (supertest waits for
 * the end of a reply, and a stream has none). Every wait is for a state, never for a time.
 */
export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Everything parsed so far, in order. */
  blocks: SseBlock[];
  /** The whole body of a reply that was not a stream (an error's JSON). */
  body(): Promise<string>;
  /** Resolves with the first block (from the start) that matches. */
  waitFor(match: (block: SseBlock) => boolean): Promise<SseBlock>;
  /** Resolves when the server ends the reply. */
  ended: Promise<void>;
  close(): void;
}

/** The app listening on an ephemeral port of the loopback (once per app). */
export async function listening(app: NestFastifyApplication): Promise<string> {
  const server = app.getHttpServer();
  if (!server.listening) await app.listen(0, '127.0.0.1');
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export function openStream(base: string, path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { headers }, (response: IncomingMessage) => {
      const blocks: SseBlock[] = [];
      const waiters: { match: (block: SseBlock) => boolean; resolve: (block: SseBlock) => void }[] = [];
      let buffer = '';
      let raw = '';
      let endedResolve: () => void = () => undefined;
      const ended = new Promise<void>((done) => (endedResolve = done));
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        raw += chunk;
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = parseBlock(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
          blocks.push(block);
          for (const waiter of [...waiters]) {
            if (waiter.match(block)) {
              waiters.splice(waiters.indexOf(waiter), 1);
              waiter.resolve(block);
            }
          }
          cut = buffer.indexOf('\n\n');
        }
      });
      response.on('end', endedResolve);
      response.on('close', endedResolve);
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        blocks,
        body: () => ended.then(() => raw),
        waitFor(match) {
          const found = blocks.find(match);
          if (found) return Promise.resolve(found);
          return new Promise((done) => waiters.push({ match, resolve: done }));
        },
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function parseBlock(text: string): SseBlock {
  const block: SseBlock = {};
  for (const line of text.split('\n')) {
    if (line.startsWith(':')) {
      block.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') block.event = value;
    else if (field === 'id') block.id = value;
    else if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`;
    else if (field === 'retry') block.retry = Number(value);
  }
  return block;
}

/** The JSON of a notification event. */
export function eventData<T = { unreadCount: number; notification?: { _id: string; kind: string } }>(
  block: SseBlock,
): T {
  return JSON.parse(block.data ?? 'null') as T;
}
