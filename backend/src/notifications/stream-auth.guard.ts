import { type ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthorizedError } from '../common/app-errors';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import { NotificationsService } from './notifications.service';

/** What the stream knows of its reader, however it signed in. */
export interface StreamReader {
  id: string;
}

/** Query parameters that would carry the login token in a URL: refused, never read. */
const TOKEN_PARAMS = ['token', 'access_token', 'jwt', 'authorization', 'auth', 'bearer'];

/**
 * The stream's two ways in (docs/decisions/039-notifications.md): the `Authorization: Bearer`
 * header (fetch-based SSE), checked like every route's; or `?ticket=` from POST
 * /api/notifications/stream-ticket, single-use and short-lived, for EventSource, which cannot send
 * headers. The login token itself is never taken from the URL (it would land in logs and history).
 * Refusals are 401 JSON, before any stream starts.
 */
@Injectable()
export class StreamAuthGuard extends JwtAuthGuard {
  constructor(private readonly notifications: NotificationsService) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{
      headers: Record<string, unknown>;
      query: Record<string, unknown>;
      user?: unknown;
    }>();
    const query = request.query ?? {};
    if (Object.keys(query).some((name) => TOKEN_PARAMS.includes(name.toLowerCase())))
      throw new UnauthorizedError(
        'The login token is never accepted in a URL: send it in the Authorization header, or use a ticket from POST /api/notifications/stream-ticket',
      );
    if (request.headers.authorization !== undefined) return (await super.canActivate(context)) as boolean;
    const ticket = query.ticket;
    if (ticket === undefined) throw new UnauthorizedError('Please log in to do that');
    const userId = typeof ticket === 'string' ? await this.notifications.redeemTicket(ticket) : undefined;
    if (!userId)
      throw new UnauthorizedError('This stream ticket is not valid (unknown, used or expired); ask for a new one');
    const reader: StreamReader = { id: userId };
    request.user = reader;
    return true;
  }
}
