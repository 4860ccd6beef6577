import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorResponse } from '../common/api-errors.decorator';
import { MAX_KEY_LENGTH } from './idempotency-key';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * The route honours an Idempotency-Key header: a retried request (a double click, a retry after a
 * lost reply) returns the first one's reply instead of creating a second row.
 * See docs/decisions/022-idempotency-keys.md.
 */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        `Optional, 1 to ${MAX_KEY_LENGTH} printable characters (a UUID), one per intended submission. ` +
        'The same key from the same user on this route within 24 hours returns the first reply (with ' +
        '`Idempotent-Replayed: true`) and creates nothing; with a different body it is refused (422); ' +
        'while the first request is still running, 409.',
    }),
    ApiResponse({
      status: 409,
      description: 'A request with this Idempotency-Key is still in progress',
      type: ErrorResponse,
    }),
    ApiResponse({
      status: 422,
      description: 'This Idempotency-Key was already used for a different request',
      type: ErrorResponse,
    }),
  );
}
