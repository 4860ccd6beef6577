import { applyDecorators, UseGuards } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { JwtAuthGuard } from './jwt-auth.guard';

/** A route that needs a valid bearer token: guarded, and documented as such (with its 401). */
export function Authenticated(): MethodDecorator & ClassDecorator {
  return applyDecorators(UseGuards(JwtAuthGuard), ApiBearerAuth(), ApiErrors(401));
}
