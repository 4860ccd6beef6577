import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isStatementTimeout } from '../database/statement-timeout';
import { AppError } from '../common/app-errors';
import { FIELD_ERRORS_PREFERENCE } from '@techit/contract/api-types';

interface Rendered {
  status: number;
  error: string;
  /** Per-field sentences (validation failures, a taken name): see AppError. */
  fields?: Readonly<Record<string, string>>;
  /** Members beside `error` (AppError.extra). */
  extra?: Readonly<Record<string, unknown>>;
}

/**
 * Messages for errors the multipart plugin throws inside a handler. (Fastify's own parser errors
 * arrive already wrapped by Nest as HttpExceptions with Fastify's readable message.)
 */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_REQ_FILE_TOO_LARGE: 'The image is too large',
  FST_FILES_LIMIT: 'Send one image at a time',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the image as multipart/form-data in a field named "file"',
};

/**
 * The one place an error becomes a reply (Nest also routes Fastify's own errors, such as body
 * parsing, through this filter): always `{ error }` with the right status. Details of
 * server-side failures are logged, never sent.
 */
export function renderError(exception: unknown): Rendered {
  if (exception instanceof AppError) {
    const { status, message, fields, extra } = exception;
    const rendered: Rendered = extra ? { status, error: message, extra } : { status, error: message };
    return fields && Object.keys(fields).length > 0 ? { ...rendered, fields } : rendered;
  }
  if (exception instanceof HttpException)
    return { status: exception.getStatus(), error: httpExceptionMessage(exception) };
  const framework = exception as { statusCode?: unknown; code?: unknown };
  if (typeof framework.statusCode === 'number' && framework.statusCode >= 400 && framework.statusCode < 500) {
    const code = typeof framework.code === 'string' ? framework.code : '';
    return { status: framework.statusCode, error: FRAMEWORK_MESSAGES[code] ?? 'The request could not be read' };
  }
  // DATABASE_STATEMENT_TIMEOUT_MS: nothing was changed (the statement rolled back whole); try again.
  if (isStatementTimeout(exception)) {
    return { status: 503, error: 'The server took too long to answer; please try again' };
  }
  return { status: 500, error: 'Something went wrong on our side; please try again' };
}

function httpExceptionMessage(exception: HttpException): string {
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const message = (body as { message?: unknown }).message;
  if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
  return typeof message === 'string' ? message : exception.message;
}

/**
 * The request asked for per-field sentences with `Prefer: field-errors` (RFC 7240). Without it the
 * reply is exactly the spec's `{ error }`, which the spec's own client and every integration built
 * on it read (docs/decisions/023-per-field-error-sentences.md).
 */
export function wantsFieldErrors(request: Pick<FastifyRequest, 'headers'>): boolean {
  const prefer = request.headers.prefer;
  const values = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  return values
    .split(',')
    .some((preference) => preference.split(';')[0]?.trim().toLowerCase() === FIELD_ERRORS_PREFERENCE);
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { status, error, fields, extra } = renderError(exception);
    // Server-side failures with their stack, on the request's logger (so with its request id);
    // 4xx are the caller's and show only as the status in the request line.
    const request = http.getRequest<FastifyRequest>();
    if (status >= 500) request.log.error({ err: exception }, 'unexpected error');
    const body = extra ? { error, ...extra } : { error };
    void reply.status(status).send(fields && wantsFieldErrors(request) ? { ...body, fields } : body);
  }
}
