import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { AuthUser } from './auth-user';

/** The logged-in caller (behind JwtAuthGuard), or null (behind OptionalJwtAuthGuard, for visitors). */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): AuthUser | null => {
  const request = context.switchToHttp().getRequest<{ user?: AuthUser | false }>();
  return request.user || null;
});
