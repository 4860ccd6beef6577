import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Fastify answers a few errors itself, before any route or Nest's exception filter runs, with a
 * body of its own (`{ error, message, statusCode, code }`). These options give them the API's
 * one error shape, `{ error }`, like every other reply.
 */
export const FRAMEWORK_ERROR_OPTIONS = { frameworkErrors, clientErrorHandler };

const ROUTING_MESSAGES: Record<string, string> = {
  FST_ERR_BAD_URL: 'The address is not valid (a % not followed by two hex digits, or bad UTF-8)',
  FST_ERR_MAX_PARAM_LENGTH: 'The address is too long',
};

/** A URL the router cannot decode (`/api/posts/%E0%A4%A`) or a path parameter over its length limit. */
function frameworkErrors(
  error: Error & { code?: string; statusCode?: number },
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message = ROUTING_MESSAGES[error.code ?? ''] ?? 'The request could not be read';
  void reply.code(error.statusCode ?? 400).send({ error: message });
}

/**
 * A request Node's HTTP parser refuses (headers or URL over the size limit, malformed HTTP, a
 * request that took too long to arrive): there is no request object, only the socket, so the
 * reply is written by hand as Fastify's default handler does.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let status = 400;
  let message = 'The request could not be read';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    status = 408;
    message = 'The request took too long to arrive';
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    status = 431;
    message = 'The request headers (or its address) are too large';
  }
  if (socket.writable) {
    const body = JSON.stringify({ error: message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
