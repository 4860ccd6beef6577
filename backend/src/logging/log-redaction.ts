import { pino } from 'pino';

/**
 * Fields that may hold a secret or personal data, at the top of a logged object or one level down
 * (`{ body: { password } }`, an error's own fields) and in a `headers` object one level down.
 * Bodies are never logged; this is the second line of defence for objects that are (errors,
 * details).
 */
const SECRET_FIELDS = new Set(['password', 'password_hash', 'token', 'email', 'authorization', 'cookie']);
const SECRET_HEADERS = ['authorization', 'cookie'];
const CENSOR = '[redacted]';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy with its secret fields censored, or the object itself when it has none. */
function censorFields(fields: Fields, nested: boolean): Fields {
  let copy: Fields | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    let replacement = value;
    if (SECRET_FIELDS.has(key)) replacement = CENSOR;
    else if (nested && value instanceof Error) {
      // Kept as the Error (pino serializes it) unless one of its own fields must be censored.
      const serialized = pino.stdSerializers.err(value);
      const censored = censorFields(serialized, false);
      if (censored !== serialized) replacement = censored;
    } else if (nested && isObject(value)) replacement = censorFields(value, false);
    else if (!nested && key === 'headers' && isObject(value) && SECRET_HEADERS.some((name) => name in value)) {
      replacement = {
        ...value,
        ...Object.fromEntries(SECRET_HEADERS.filter((name) => name in value).map((name) => [name, CENSOR])),
      };
    }
    if (replacement !== value) (copy ??= { ...fields })[key] = replacement;
  }
  return copy ?? fields;
}

/**
 * pino's `redact` option did the same through @pinojs/redact, which cloned and walked every logged
 * object: 12 µs of a request line's 22, and with it the line was half of the CPU of a cached feed
 * read (docs/performance.md). This walks the keys once and copies only when something is censored.
 */
export function redactSecrets(fields: Fields): Fields {
  return censorFields(fields, true);
}

// The last line of defence, applied to every finished line: a value no field name gives away
// (a token inside an error message, an email in a PostgreSQL error's detail, a pasted URL).
// Each pattern matches neither a quote nor a backslash, so the line stays valid JSON.
const JWT_LIKE = /\beyJ[\w-]{4,}\.[\w-]*\.[\w-]*/g;
const CREDENTIALS = /\b(Bearer|Basic)\s+[^\s"\\]+/gi;
const EMAIL_LIKE = /[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;

// Each pattern above needs one of these: most lines (request lines) are checked by this one scan.
const MAY_HOLD_SECRET = /eyJ|@|bearer|basic/i;

export function scrubLogLine(line: string): string {
  if (!MAY_HOLD_SECRET.test(line)) return line;
  return line
    .replace(JWT_LIKE, '[redacted token]')
    .replace(CREDENTIALS, '$1 [redacted]')
    .replace(EMAIL_LIKE, '[redacted email]');
}
