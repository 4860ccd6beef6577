import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
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

/**
 * Decorators are evaluated bottom-up, so a property's failed constraints arrive in bottom-up
 * order; the last one is the top-most in the source. DTOs list their checks top-down as
 * presence, type, then format or length, so a missing title is "required", `title: 42` "must be
 * text", and only a real string is "at most 80 characters".
 */
function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const constraints = Object.values(error.constraints ?? {});
    const topMost = constraints[constraints.length - 1];
    if (topMost) return topMost;
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * Unknown fields are dropped, wrong types are 400, and the reply names the first problem in
 * words a person can act on.
 */
class RequestValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A list, string, number or null where an object belongs would otherwise be reported as
    // "<first field> is required", which misleads.
    const notAnObject = value === null || typeof value !== 'object' || Array.isArray(value);
    if (metadata.type === 'body' && value !== undefined && notAnObject) {
      throw new BadRequestError('The request body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    whitelist: true,
    transform: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => new BadRequestError(firstMessage(errors) ?? 'The request body must be a JSON object'),
  });
}
