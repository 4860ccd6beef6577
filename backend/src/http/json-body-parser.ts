import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { BadRequestError } from '../common/app-errors';

/**
 * JSON bodies, parsed here rather than by Fastify's default parser so that a bad body gets an
 * error that says what is wrong (Nest would otherwise re-wrap Fastify's message), and so that
 * `__proto__` / `constructor.prototype` keys are refused before any code sees them.
 *
 * text/plain is parsed as JSON too: the original web client sends PUT /editpost as a JSON string
 * with fetch's default `text/plain;charset=UTF-8` type.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser(['application/json', 'text/plain']);
  fastify.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, parseJsonBody);
}

/**
 * The routes whose body may hold a post's article (LIMITS.postBodyMax characters of Markdown): its
 * 40,000 characters are up to 120,000 bytes of UTF-8 (3 bytes each below U+10000), or 240,000 when
 * a client escapes every one as `\uXXXX` in JSON, beside a title, a description and links. So
 * these few routes take 256 KB; every other route keeps the server's 100 KB (app-factory.ts),
 * and an article over its limit gets the field's 400, not a 413.
 */
export const ARTICLE_BODY_LIMIT = 256 * 1024;
const ARTICLE_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/createpost',
  'PUT /api/editpost/:id',
  'POST /api/drafts',
  'PUT /api/drafts/:id',
  'POST /api/preview',
]);

export function registerArticleBodyLimit(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.some((method) => ARTICLE_ROUTES.has(`${method} ${route.url}`))) route.bodyLimit = ARTICLE_BODY_LIMIT;
  });
}

function parseJsonBody(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const text = body.toString();
  // An empty body is "nothing sent": validation then names the missing fields.
  if (text.trim() === '') return done(null, undefined);
  let value: unknown;
  try {
    value = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const poisoned = error instanceof SyntaxError && /prototype/i.test(error.message);
    done(
      new BadRequestError(
        poisoned
          ? 'The request body contains a forbidden key (__proto__ or constructor.prototype)'
          : 'The request body is not valid JSON',
      ),
    );
    return;
  }
  const problem = inspectBody(value, 0);
  if (problem) return done(new BadRequestError(problem));
  done(null, value);
}

/** Valid bodies nest two levels (a notice's links); validating a far deeper one overflowed the stack (a 500). */
const MAX_DEPTH = 32;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Refuses nesting beyond MAX_DEPTH (never recursing deeper itself) and NUL in text, which
 * PostgreSQL cannot store (a 500 there); an unpaired surrogate half becomes U+FFFD, which both
 * databases would otherwise store differently (one replacement character or three).
 */
function inspectBody(value: unknown, depth: number): string | null {
  if (depth > MAX_DEPTH) return 'The request body is nested too deeply';
  if (typeof value === 'string') return value.includes('\u0000') ? 'Text may not contain the NUL character' : null;
  if (value === null || typeof value !== 'object') return null;
  const container = value as Record<string, unknown>;
  for (const key of Object.keys(container)) {
    const child = container[key];
    if (typeof child === 'string') container[key] = child.replace(LONE_SURROGATE, '\uFFFD');
    const problem = inspectBody(container[key], depth + 1);
    if (problem) return problem;
  }
  return null;
}
