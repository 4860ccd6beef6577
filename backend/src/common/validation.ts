import { withLinkScheme } from '@techit/contract/url-rules';
import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidateBy, type ValidationOptions } from 'class-validator';
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

/**
 * Text with something other than spaces in it, for what is not trimmed (a passphrase); ranked as
 * "missing". A value that is not text passes here and is reported by IsString.
 */
export function IsNotBlank(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isNotBlank', validator: { validate: (value: unknown) => typeof value !== 'string' || /\S/.test(value) } },
    options,
  );
}

/** Which failed rule a person should hear about first: "is required" before "must be text"
 * before "at most 80 characters" (a missing or mistyped value fails the later rules too). */
const PRESENCE_RULES = new Set(['isDefined', 'isNotEmpty', 'isNotBlank']);
const TYPE_RULES = new Set(['isString', 'isArray', 'isInt', 'isNumber', 'isBoolean', 'isObject', 'isIn']);

function rank(rule: string): number {
  if (PRESENCE_RULES.has(rule)) return 0;
  if (TYPE_RULES.has(rule)) return 1;
  return 2;
}

/** A field's failed rules, the one to tell first at the head. */
function rankedRules(error: ValidationError): [string, string][] {
  // Stable sort: among rules of the same kind, the order class-validator reported them in.
  return Object.entries(error.constraints ?? {}).sort(([a], [b]) => rank(a) - rank(b));
}

function firstMessage(errors: ValidationError[]): string | undefined {
  for (const error of errors) {
    const [first] = rankedRules(error);
    if (first) return first[1];
    const nested = firstMessage(error.children ?? []);
    if (nested) return nested;
  }
  return undefined;
}

/** What a rule says to a person next to its field: its `sentence` (see `say`), else its message. */
function sentenceOf(error: ValidationError, rule: string, message: string): string {
  const context = error.contexts?.[rule] as { sentence?: unknown } | undefined;
  return typeof context?.sentence === 'string' ? context.sentence : message;
}

/** Every failing field at once (top-level fields: the forms' inputs), one sentence each. */
export function fieldSentences(errors: ValidationError[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of errors) {
    const [first] = rankedRules(error);
    if (first) fields[error.property] = sentenceOf(error, first[0], first[1]);
    else {
      const nested = firstMessage(error.children ?? []);
      if (nested) fields[error.property] = nested;
    }
  }
  return fields;
}

/**
 * A rule's options with both of its texts: `message`, the terse `error` summary the spec's client
 * shows (kept word for word), and `sentence`, what a form shows next to the field. Keeping them
 * side by side on the rule is what keeps them saying the same thing.
 */
export function say(message: string, sentence: string): { message: string; context: { sentence: string } } {
  return { message, context: { sentence } };
}

/**
 * Unknown fields are dropped, wrong types are 400, and the reply names the first problem in
 * words a person can act on (`error`) and every failing field with a sentence (`fields`).
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
    exceptionFactory: (errors) =>
      new BadRequestError(firstMessage(errors) ?? 'The request body must be a JSON object', {
        fields: fieldSentences(errors),
      }),
  });
}
