import { type ArgumentsHost, Catch, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderError } from '../http/http-exception.filter';

/**
 * The feeds' errors as the global filter words them (renderError), but as plain text: a feed
 * reader or crawler asked for a file, not for JSON. Unknown tags and users are 404s; anything
 * unexpected is logged and a 500, as everywhere.
 */
@Catch()
export class PlainTextErrorFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { status, error } = renderError(exception);
    if (status >= 500) http.getRequest<FastifyRequest>().log.error({ err: exception }, 'unexpected error');
    void reply.status(status).type('text/plain; charset=utf-8').send(`${error}\n`);
  }
}
