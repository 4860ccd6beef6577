import type { ArgumentsHost } from '@nestjs/common';
import fc from 'fast-check';
import type { Logger } from 'pino';
import { NotFoundError } from '../common/app-errors';
import { AppLogger } from './app-logger';
import { scrubLogLine } from './log-redaction';
import { loggableUrl } from './loggable-url';
import { createAppLogger } from './pino-logger';
import { logFlatInfo, requestChildLogger } from './request-line';
import { HttpExceptionFilter } from '../http/http-exception.filter';

/** A logger writing into an array, one parsed JSON object per line. */
function capture(level: 'info' | 'silent' = 'info'): {
  logger: Logger;
  lines: Record<string, unknown>[];
  raw: string[];
} {
  const raw: string[] = [];
  const logger = createAppLogger(level, { write: (line: string) => void raw.push(line) });
  return {
    logger,
    raw,
    get lines() {
      return raw.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

const TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI2NTRhYmMiLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';

describe('scrubLogLine', () => {
  it('replaces tokens, credentials and email addresses wherever they sit in a line, keeping it JSON', () => {
    const line = JSON.stringify({
      msg: `rejected ${TOKEN} for ana.maria+tag@mail.example.org`,
      detail: 'Key (email_key)=(someone@example.com) already exists.',
      header: 'Bearer abc.def-ghi',
      alg: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
    });
    const scrubbed = scrubLogLine(line);
    expect(JSON.parse(scrubbed)).toEqual({
      msg: 'rejected [redacted token] for [redacted email]',
      detail: 'Key (email_key)=([redacted email]) already exists.',
      header: 'Bearer [redacted]',
      alg: '[redacted token]',
    });
  });

  it('leaves ordinary text alone', () => {
    const line = JSON.stringify({
      msg: 'GET /api/posts 200 in 3 ms',
      stack: 'at node_modules/@nestjs/core/router.js:1:2',
    });
    expect(scrubLogLine(line)).toBe(line);
  });
});

describe('loggableUrl', () => {
  it('keeps the path and paging values, and hides every other query value', () => {
    expect(loggableUrl('/api/posts?feed=following&page=2&token=abc&email=a%40b.c')).toBe(
      '/api/posts?feed=following&page=2&token=[redacted]&email=[redacted]',
    );
    expect(loggableUrl('/api/posts/654abc')).toBe('/api/posts/654abc');
  });

  it('shows what a decoding parser would, for plain and encoded queries alike', () => {
    // The reference: every query decoded by URLSearchParams and the kept values encoded again.
    const decoded = (url: string): string => {
      const [path, query] = [url.slice(0, url.indexOf('?')), url.slice(url.indexOf('?') + 1)];
      const parts = [...new URLSearchParams(query)].map(
        ([key, value]) =>
          `${/^[\w.-]{1,40}$/.test(key) ? key : '[key]'}=${
            ['page', 'limit', 'cursor', 'feed', 'userId'].includes(key)
              ? encodeURIComponent(value.slice(0, 200))
              : '[redacted]'
          }`,
      );
      return `${path}?${parts.join('&')}`;
    };
    const piece = fc.oneof(
      fc.constantFrom('page', 'limit', 'cursor', 'feed', 'userId', 'token', 'pa%67e', 'a+b', '', '=', '&', '%', '%zz'),
      fc.stringMatching(/^[\w.~%+=&#-]{0,12}$/),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const url = `/api/posts?${pieces.join('')}`;
        expect(loggableUrl(url)).toBe(decoded(url));
      }),
      { numRuns: 2000 },
    );
    expect(loggableUrl(`/api/posts?cursor=${'x'.repeat(300)}&page=`)).toBe(
      `/api/posts?cursor=${'x'.repeat(200)}&page=`,
    );
  });
});

describe('createAppLogger', () => {
  it('redacts password, token and email fields of logged objects', () => {
    const out = capture();
    out.logger.info({ password: 'p4ss', body: { token: 'tok', email: 'x', keep: 1 } }, 'event');
    expect(out.lines[0]).toMatchObject({
      level: 'info',
      msg: 'event',
      password: '[redacted]',
      body: { token: '[redacted]', email: '[redacted]', keep: 1 },
    });
  });

  it('redacts authorization and cookie headers one level down, and keeps the other headers', () => {
    const out = capture();
    out.logger.warn(
      { request: { headers: { authorization: `Bearer ${TOKEN}`, cookie: 'sid=1', accept: 'json' } } },
      'e',
    );
    expect(out.lines[0]).toMatchObject({
      request: { headers: { authorization: '[redacted]', cookie: '[redacted]', accept: 'json' } },
    });
  });

  it("redacts an error's own secret fields and keeps its message and stack", () => {
    const out = capture();
    const error = Object.assign(new Error('duplicate key'), { email: 'someone@example.com', code: '23505' });
    out.logger.error({ err: error }, 'failed');
    const err = out.lines[0].err as Record<string, unknown>;
    expect(err).toMatchObject({ message: 'duplicate key', email: '[redacted]', code: '23505' });
    expect(String(err.stack)).toContain('duplicate key');
  });

  it('logs an error without secret fields as an error (type, message, stack)', () => {
    const out = capture();
    out.logger.error({ err: new TypeError('bad') }, 'failed');
    expect(out.lines[0].err).toMatchObject({ type: 'TypeError', message: 'bad' });
  });

  it('writes nothing at the silent level', () => {
    const out = capture('silent');
    out.logger.error('something');
    new AppLogger(out.logger).error('something else');
    expect(out.raw).toEqual([]);
  });
});

describe('AppLogger', () => {
  it("writes Nest's messages as JSON with their context, an error with its stack", () => {
    const out = capture();
    const nest = new AppLogger(out.logger);
    nest.log('Listening on http://localhost:3000', 'TechIt');
    nest.error('It broke', 'Error: It broke\n    at main (main.ts:1:1)', 'Seed');
    nest.error(new Error('thrown'), 'Worker');
    expect(out.lines).toEqual([
      expect.objectContaining({ level: 'info', context: 'TechIt', msg: 'Listening on http://localhost:3000' }),
      expect.objectContaining({
        level: 'error',
        context: 'Seed',
        msg: 'It broke',
        stack: expect.stringContaining('at main'),
      }),
      expect.objectContaining({
        level: 'error',
        context: 'Worker',
        msg: 'thrown',
        err: expect.objectContaining({ stack: expect.stringContaining('Error: thrown') }),
      }),
    ]);
  });

  it("keeps Nest's per-module and per-route start-up lines out of the info level", () => {
    const out = capture();
    new AppLogger(out.logger).log('Mapped {/api/posts, GET} route', 'RouterExplorer');
    expect(out.raw).toEqual([]);
  });
});

describe('HttpExceptionFilter logging', () => {
  function run(exception: unknown) {
    const out = capture();
    const reply = { statusCode: 0, body: undefined as unknown };
    const fastifyReply = {
      status(code: number) {
        reply.statusCode = code;
        return this;
      },
      send(body: unknown) {
        reply.body = body;
        return this;
      },
    };
    const request = { log: out.logger.child({ reqId: 'req-7' }) };
    const host = {
      switchToHttp: () => ({ getResponse: () => fastifyReply, getRequest: () => request }),
    } as unknown as ArgumentsHost;
    new HttpExceptionFilter().catch(exception, host);
    return { reply, lines: out.lines };
  }

  it('logs an unexpected error with its stack and the request id, and answers a generic 500', () => {
    const { reply, lines } = run(new Error(`db down for ${TOKEN}`));
    expect(reply).toEqual({ statusCode: 500, body: { error: 'Something went wrong on our side; please try again' } });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        reqId: 'req-7',
        err: expect.objectContaining({ stack: expect.stringContaining('db down for [redacted token]') }),
      }),
    ]);
  });

  it('does not log a 4xx', () => {
    const { reply, lines } = run(new NotFoundError("This post doesn't exist"));
    expect(reply.statusCode).toBe(404);
    expect(lines).toEqual([]);
  });
});

describe('logFlatInfo', () => {
  const fields = { method: 'GET', url: '/api/posts?q="x"', route: undefined, statusCode: 200, responseTime: 1.5 };

  it("writes the line pino's own info would write, with the logger's bindings", () => {
    const out = capture();
    const child = out.logger.child({ reqId: 'req-1' });
    child.info(fields, 'request completed');
    logFlatInfo(child, fields, 'request completed');
    const [general, flat] = out.lines;
    expect(flat).toEqual({ ...general, time: flat.time });
    expect(Object.keys(flat)).toEqual(Object.keys(general));
    expect(Date.parse(String(flat.time))).not.toBeNaN();
  });

  /** Logs one line through pino and one flat, and returns both without their times. */
  function bothLines(out: ReturnType<typeof capture>, child: Logger): { pinoLine: string; flatLine: string } {
    child.info(fields, 'request completed');
    const general = jest.spyOn(child, 'info');
    logFlatInfo(child, fields, 'request completed');
    expect(general).not.toHaveBeenCalled();
    const [pinoLine, flatLine] = out.raw.map((line) => line.replace(/"time":"[^"]*"/, '"time":""'));
    return { pinoLine, flatLine };
  }

  it("writes the same line for a request logger made by Fastify's child logger factory", () => {
    const out = capture();
    const { pinoLine, flatLine } = bothLines(out, requestChildLogger(out.logger, { reqId: 'req-2' }, {}) as Logger);
    expect(flatLine).toBe(pinoLine);
    expect(out.lines[1]).toMatchObject({ reqId: 'req-2' });
  });

  it('writes the flat line for a request logger made from a child of the app logger', () => {
    const out = capture();
    const plugin = out.logger.child({ plugin: 'posts' }, {});
    const { pinoLine, flatLine } = bothLines(out, requestChildLogger(plugin, { reqId: 'req-4' }, {}) as Logger);
    expect(flatLine).toBe(pinoLine);
    expect(out.lines[1]).toMatchObject({ plugin: 'posts', reqId: 'req-4' });
  });

  it("keeps a further child's own bindings: it takes pino's path", () => {
    const out = capture();
    const request = requestChildLogger(out.logger, { reqId: 'req-3' }, {}) as Logger;
    const nested = request.child({ job: 'resize' });
    logFlatInfo(nested, fields, 'done');
    expect(out.lines[0]).toMatchObject({ reqId: 'req-3', job: 'resize', msg: 'done' });
  });

  it('scrubs the line like every other, and writes nothing below the level', () => {
    const out = capture();
    logFlatInfo(out.logger, { url: `/api/user/${TOKEN}`, who: 'a@b.example' }, 'seen');
    expect(out.lines[0]).toMatchObject({ url: '/api/user/[redacted token]', who: '[redacted email]' });
    const quiet = capture('silent');
    logFlatInfo(quiet.logger, fields, 'request completed');
    expect(quiet.raw).toEqual([]);
  });
});
