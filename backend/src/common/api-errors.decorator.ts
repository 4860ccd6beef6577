import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

export class ErrorResponse {
  @ApiProperty({ example: 'Title must be at most 80 characters' })
  error: string;

  @ApiPropertyOptional({
    description:
      'Only when the request sends `Prefer: field-errors`, on invalid input (400) and a taken userName or email (409): every failing field of the request, each with a sentence a form can show next to that field. Without that header an error reply is exactly `{ error }`.',
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { userName: 'Choose a user name.', password: 'The password needs 8 to 128 characters.' },
  })
  fields?: Record<string, string>;
}

const MEANINGS: Record<number, string> = {
  400: 'Invalid input',
  401: 'Missing, expired or invalid token',
  403: 'Not allowed for this user',
  404: 'Not found (also for a malformed id)',
  409: 'Conflicts with what the server holds (already taken; a reply to a deleted comment)',
  413: 'Too large',
  415: 'Unsupported file type',
  422: 'Idempotency-Key already used for a different request',
};

/** Documents the `{ error }` replies a route can give. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: MEANINGS[status], type: ErrorResponse })),
  );
}
