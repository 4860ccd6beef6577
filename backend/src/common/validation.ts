import { withLinkScheme } from '@techit/contract/url-rules';
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

/** A typed link: trimmed, blank = not sent, `https://` added when it names no scheme. */
export function LinkText(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    return trimmed === '' ? undefined : withLinkScheme(trimmed);
  });
}

/** Which failed rule a person should hear about first: "is required" before "must be text"
 * before "at most 80 characters" (a missing or mistyped value fails the later rules too). */
const PRESENCE_RULES = new Set(['isDefined', 'isNotEmpty']);
const TYPE_RULES = new Set(['isString', 'isArray', 'isInt', 'isNumber', 'isBoolean', 'isObject', 'isIn']);

function rank(rule: string): number {
  if (PRESENCE_RULES.has(rule)) return 0;
  if (TYPE_RULES.has(rule)) return 1;
  return 2;
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const failed = Object.entries(error.constraints ?? {});
    // Stable sort: among rules of the same kind, the order class-validator reported them in.
    const [first] = failed.sort(([a], [b]) => rank(a) - rank(b));
    if (first) return first[1];
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
