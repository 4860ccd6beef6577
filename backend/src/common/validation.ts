import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { BadRequestError } from './app-errors';

/** Trims text so "  " counts as missing, as users expect. Non-text passes through to be rejected. */
export function Trim(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
}

/** Trims, and turns blank text into "not sent", for optional fields. */
export function TrimToUndefined(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  });
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const constraints = Object.values(error.constraints ?? {});
    if (constraints[0]) return constraints[0];
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * Unknown fields are dropped, wrong types are 400, and the reply names the first problem in
 * words a person can act on.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestError(firstMessage(errors) ?? 'The request body must be a JSON object'),
  });
}
