/**
 * The errors services throw. Each carries its HTTP status and a message a person can read;
 * the one exception filter renders them as `{ error }`. Services never import HTTP classes.
 */
export abstract class AppError extends Error {
  abstract readonly status: number;

  /**
   * Per input field, a sentence a person can act on, shown next to that field by a form (beside
   * `error`, which stays the one-line summary the spec's client shows). Sent only to a request
   * that asks for it (`Prefer: field-errors`, see http-exception.filter.ts).
   */
  readonly fields?: Readonly<Record<string, string>>;

  /**
   * What the reply carries beside `error`, for a client that can act on it: the stored draft of a
   * draft save that lost a race (409, drafts/drafts.service.ts).
   */
  readonly extra?: Readonly<Record<string, unknown>>;

  constructor(
    message: string,
    options?: ErrorOptions & {
      fields?: Readonly<Record<string, string>>;
      extra?: Readonly<Record<string, unknown>>;
    },
  ) {
    super(message, options);
    this.fields = options?.fields;
    this.extra = options?.extra;
  }
}

export class BadRequestError extends AppError {
  readonly status = 400;
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
}

export class ForbiddenError extends AppError {
  readonly status = 403;
}

export class NotFoundError extends AppError {
  readonly status = 404;
}

export class ConflictError extends AppError {
  readonly status = 409;
}

/** Well-formed, but it contradicts what the server holds (an Idempotency-Key reused for another request). */
export class UnprocessableEntityError extends AppError {
  readonly status = 422;
}

export class PayloadTooLargeError extends AppError {
  readonly status = 413;
}

export class UnsupportedMediaTypeError extends AppError {
  readonly status = 415;
}

/** A service this server depends on (the image store) failed or did not answer: try again later. */
export class ServiceUnavailableError extends AppError {
  readonly status = 503;
}
