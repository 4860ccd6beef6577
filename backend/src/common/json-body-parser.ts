import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { BadRequestError } from './app-errors';

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

function parseJsonBody(
  _request: FastifyRequest,
  body: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const text = body.toString();
  // An empty body is "nothing sent": validation then names the missing fields.
  if (text.trim() === '') return done(null, undefined);
  try {
    done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
  } catch (error) {
    const poisoned = error instanceof SyntaxError && /prototype/i.test(error.message);
    done(
      new BadRequestError(
        poisoned
          ? 'The request body contains a forbidden key (__proto__ or constructor.prototype)'
          : 'The request body is not valid JSON',
      ),
    );
  }
}
