import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppError } from './app-errors';

interface Rendered {
  status: number;
  error: string;
}

/** Messages for the framework's own errors, which otherwise speak in codes. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the body as JSON (Content-Type: application/json)',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body',
  FST_REQ_FILE_TOO_LARGE: 'The image is too large',
  FST_FILES_LIMIT: 'Send one image at a time',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'Send the image as multipart/form-data in a field named "file"',
};

const log = new Logger('Errors');

/**
 * The one place an error becomes a reply (Nest also routes Fastify's own errors, such as body
 * parsing, through this filter): always `{ error }` with the right status. Details of
 * server-side failures are logged, never sent.
 */
export function renderError(exception: unknown): Rendered {
  if (exception instanceof AppError) return { status: exception.status, error: exception.message };
  if (exception instanceof HttpException) {
    const body = exception.getResponse();
    const message =
      typeof body === 'string'
        ? body
        : Array.isArray((body as { message?: unknown }).message)
          ? String((body as { message: unknown[] }).message[0])
          : String((body as { message?: unknown }).message ?? exception.message);
    return { status: exception.getStatus(), error: message };
  }
  // The JSON body parser throws a SyntaxError (with a 400 status) for malformed or poisoned JSON.
  if (exception instanceof SyntaxError) {
    return {
      status: 400,
      error: /prototype/i.test(exception.message)
        ? 'The request body contains a forbidden key (__proto__ or constructor.prototype)'
        : 'The request body is not valid JSON',
    };
  }
  const framework = exception as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof framework.statusCode === 'number' && framework.statusCode >= 400 && framework.statusCode < 500) {
    const code = typeof framework.code === 'string' ? framework.code : '';
    const message = FRAMEWORK_MESSAGES[code] ?? (code.startsWith('FST_') ? 'The request could not be read' : String(framework.message));
    return { status: framework.statusCode, error: message };
  }
  log.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  return { status: 500, error: 'Something went wrong on our side; please try again' };
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { status, error } = renderError(exception);
    void reply.status(status).send({ error });
  }
}
