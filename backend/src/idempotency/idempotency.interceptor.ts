import { type CallHandler, type ExecutionContext, HttpStatus, Injectable, type NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import type { AuthUser } from '../auth/auth-user';
import { IDEMPOTENCY_KEY_HEADER, parseIdempotencyKey, requestHash } from './idempotency-key';
import type { KeyId } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';

/** Set on a reply that repeats the first one for its key, as Stripe does. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Applied by @Idempotent() to a creating route behind @Authenticated() (guards run first, so the
 * caller is known). Without the header the request goes straight through.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser | false }>();
    const key = parseIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
    if (key === null || !request.user) return next.handle();
    const id: KeyId = { userId: request.user.id, route: `${request.method} ${request.routeOptions.url}`, key };
    const status = successStatus(context, request.method);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return from(this.run(id, requestHash(request.url, request.body), status, reply, next));
  }

  private async run(id: KeyId, hash: string, status: number, reply: FastifyReply, next: CallHandler): Promise<unknown> {
    const begun = await this.idempotency.begin(id, hash);
    if (begun.kind === 'replay') {
      void reply.header(REPLAYED_HEADER, 'true');
      return begun.body;
    }
    let body: unknown;
    try {
      body = await lastValueFrom(next.handle());
    } catch (error) {
      await this.idempotency.release(id);
      throw error;
    }
    await this.idempotency.complete(id, status, body);
    return body;
  }
}

/** The status Nest will send for the handler's result: its @HttpCode, else 201 for POST and 200 for the rest. */
function successStatus(context: ExecutionContext, method: string): number {
  const declared = Reflect.getMetadata(HTTP_CODE_METADATA, context.getHandler()) as number | undefined;
  return declared ?? (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
}
