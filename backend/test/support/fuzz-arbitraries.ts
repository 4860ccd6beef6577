import { createHmac } from 'node:crypto';
import fc from 'fast-check';

/**
 * Generators of hostile input for the fuzz suite. Bodies are generated as JSON *text*, not as
 * values: only text can carry 1e309, -0, duplicate keys or a `__proto__` key, and it is what the
 * server reads.
 */

/** Text that has broken real servers: unicode edge cases, injections, prototype keys, number-ish words. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\u202Egnp.exe',
  'abc\u200B',
  '\u200D\u200C',
  '\uFEFF',
  '\u2028\u2029',
  '\uD800',
  '\uDFFF',
  'a\uD83D',
  '\uDE00b',
  '👩‍💻🔥',
  '🏳️‍🌈',
  'مرحبا بالعالم',
  '\u05D0\u200F\u200E',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǒ̘̓',
  "' OR 1=1--",
  '"; DROP TABLE users; --',
  "1'); DELETE FROM posts; --",
  '\\',
  '%00',
  '%',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'http://',
  'https://',
  'http://localhost:3000/api',
  '//evil.example',
  'file:///etc/passwd',
  'https://example.com/\u0000',
  '/uploads/../../etc/passwd',
  '/uploads/default-avatar.svg',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'NaN',
  '-0',
  '1e309',
  'Infinity',
  '-1',
  '0',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '${7*7}',
  '{{7*7}}',
];

/** Lengths just past each limit, and far past (the JSON body limit is 100 KB). */
const LONG_LENGTHS = [31, 43, 81, 129, 161, 255, 401, 1001, 2049, 10_000, 60_000, 99_000, 120_000];
const LONG_UNITS = ['a', 'é', '😀', '\u200B', ' ', '<', '\u0000'];

export const longString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...LONG_LENGTHS), fc.constantFrom(...LONG_UNITS))
  .map(([length, unit]) => unit.repeat(length));

const loneSurrogateOrChar = fc.oneof(
  fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogateOrChar, maxLength: 20 }) },
  { weight: 1, arbitrary: longString },
);

/** Number tokens JSON.stringify cannot write: overflow, negative zero, too many digits. */
const NUMBER_TOKENS = [
  '1e309',
  '-1e309',
  '-0',
  '0',
  '1e-400',
  '123456789012345678901234567890',
  '-1',
  '1.5',
  '2147483648',
  '9007199254740993',
  '0.1e1',
];

const jsonScalar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileString.map((text) => JSON.stringify(text)) },
  { weight: 2, arbitrary: fc.constantFrom(...NUMBER_TOKENS, 'true', 'false', 'null') },
  { weight: 1, arbitrary: fc.double().map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.integer().map(String) },
);

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString', 'valueOf', 'length'];

export function objectText(entries: ReadonlyArray<readonly [string, string]>): string {
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`;
}

function jsonKey(fields: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, ...fields) },
    { weight: 1, arbitrary: hostileString },
  );
}

/** Any JSON value, a few levels deep, with hostile keys and scalars. */
export function jsonValue(fields: readonly string[] = []): fc.Arbitrary<string> {
  const key = jsonKey(fields);
  return fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ depthSize: 'small' }, jsonScalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map(objectText),
  })).value;
}

/** Bodies that try to reach Object.prototype, directly, through constructor, or through an escaped key. */
export const POLLUTION_BODIES = [
  '{"__proto__":{"polluted":"yes","isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"\\u005f_proto__":{"polluted":"yes"}}',
  '{"title":"t","desc":"d","__proto__":{"isAdmin":true}}',
  '[{"__proto__":{"polluted":"yes"}}]',
  '{"a":{"b":{"__proto__":{"polluted":"yes"}}}}',
  '{"constructor":"x","prototype":"y","__defineGetter__":"z"}',
];

const INVALID_JSON = [
  '{',
  '{"title":',
  "{'title':'x'}",
  '{"a":1,}',
  '[1,2',
  'NaN',
  'undefined',
  '{"a":1}garbage',
  '\uFEFF{"a":1}',
  '{"a":"\\x41"}',
  '"unterminated',
  '{"a":01}',
  ',',
  '{"a" 1}',
  '{"a":"\u0001"}',
  '{"__proto__":',
  '\u0000',
];

/** `[[[…]]]` or `{"a":{"a":…}}` n levels deep, sometimes as the value of a real field. */
const deepJson = (fields: readonly string[]): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(33, 100, 1000, 10_000, 40_000),
      fc.boolean(),
      fc.option(fc.constantFrom(...(fields.length > 0 ? fields : ['a']))),
    )
    .map(([depth, arrays, field]) => {
      const nested = arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      return field === null ? nested : objectText([[field, nested]]);
    });

/**
 * A body for an endpoint whose valid fields are `valid` (each generating JSON text of a valid
 * value): mostly nearly valid bodies (some fields hostile, missing or duplicated, extra keys), so
 * that validators and services are reached, plus bodies of every wrong shape.
 */
export function hostileBody(valid: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<string> {
  const fields = Object.keys(valid);
  const field = (name: string) =>
    fc.oneof(
      { weight: 6, arbitrary: valid[name].map((value): string | null => value) },
      { weight: 2, arbitrary: jsonValue(fields) },
      { weight: 1, arbitrary: longString.map((text) => JSON.stringify(text)) },
      { weight: 1, arbitrary: fc.constant(null) },
    );
  const nearlyValid = fc
    .tuple(
      fc.tuple(...fields.map((name) => field(name).map((value) => [name, value] as const))),
      fc.array(fc.tuple(jsonKey(fields), jsonValue(fields)), { maxLength: 3 }),
    )
    .map(([known, extra]) =>
      objectText([...known.filter((entry): entry is readonly [string, string] => entry[1] !== null), ...extra]),
    );
  const allValid = fc
    .tuple(...fields.map((name) => valid[name].map((value) => [name, value] as const)))
    .map((entries) => objectText(entries));
  return fc.oneof(
    { weight: 6, arbitrary: nearlyValid },
    { weight: 2, arbitrary: allValid },
    { weight: 2, arbitrary: jsonValue(fields) },
    { weight: 1, arbitrary: fc.constantFrom(...POLLUTION_BODIES) },
    { weight: 1, arbitrary: deepJson(fields) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom(...INVALID_JSON), fc.string({ unit: 'binary', maxLength: 50 })) },
  );
}

/** Mostly JSON, sometimes what else a client might claim (or nothing at all: undefined). */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'text/plain;charset=UTF-8',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/xml',
      'text/html',
      '',
      '*/*',
      'application/json, text/plain',
      'application/vnd.api+json',
      'application/json;;;=',
      undefined,
    ),
  },
);

/** Percent-encodes every byte of the text's UTF-8 except unreserved characters (lone surrogates become U+FFFD). */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Already-encoded path segments and query values that attack the URL decoder itself. */
const RAW_URL_PIECES = [
  '..',
  '.',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AE',
  '%C3%28',
  '%FF',
  '%u0041',
  ';',
  ',',
  '*',
  '~',
  "'%20OR%201%3D1--",
  '%27%20OR%201%3D1--',
  'null',
  'undefined',
  '-1',
  'NaN',
  '__proto__',
  'constructor',
  'prototype',
  'ffffffffffffffffffffffff',
  '000000000000000000000000',
  'ZZZZZZZZZZZZZZZZZZZZZZZZ',
  'abcdefabcdefabcdefabcde',
  'abcdefabcdefabcdefabcdef0',
];

/** A path segment for an id: a real one (sometimes upper-cased or suffixed), a near miss, or an attack. */
export function hostileId(realIds: readonly string[]): fc.Arbitrary<string> {
  const real = fc.constantFrom(...realIds);
  return fc.oneof(
    { weight: 3, arbitrary: real },
    {
      weight: 1,
      arbitrary: fc
        .tuple(real, fc.constantFrom('upper', '%00', '%20', '.json', '..', '%2F..'))
        .map(([id, change]) => (change === 'upper' ? id.toUpperCase() : id + change)),
    },
    { weight: 3, arbitrary: fc.constantFrom(...RAW_URL_PIECES) },
    { weight: 2, arbitrary: hostileString.filter((text) => text.length < 3000).map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(25, 101, 1000, 5000).map((length) => 'a'.repeat(length)) },
  );
}

/** An id as a JSON string, for bodies: mostly real ones, so services are reached. */
export function idValue(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 3, arbitrary: fc.constantFrom(...realIds) },
      { weight: 1, arbitrary: fc.constantFrom(...realIds).map((id) => id.toUpperCase()) },
      { weight: 1, arbitrary: fc.constantFrom('ffffffffffffffffffffffff', 'abcdefabcdefabcdefabcde', '') },
      { weight: 2, arbitrary: hostileString },
    )
    .map((id) => JSON.stringify(id));
}

const QUERY_VALUES = [
  '-1',
  '0',
  '1',
  '2',
  '50',
  '51',
  '1000001',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '1.5',
  '0x10',
  '%201',
  '99999999999999999999',
  '',
  'true',
  '[]',
  'for-you',
  'following',
  'FOLLOWING',
  'hot',
  'HOT',
  'tag',
  'tags',
  ...RAW_URL_PIECES,
];

/** Cursors: random base64url, encodings of hostile keysets, and near-valid ones. */
const hostileCursor: fc.Arbitrary<string> = fc.oneof(
  fc.base64String({ maxLength: 80 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')),
  fc
    .tuple(
      fc.constantFrom('2026-01-01T00:00:00.000Z', '9999-99-99T99:99:99.999Z', '', "' OR 1=1--"),
      fc.constantFrom('ffffffffffffffffffffffff', '', "' OR 1=1--", 'ffffffffffffffffffffffff|x', '\u0000'),
    )
    .map(([createdAt, id]) => Buffer.from(`${createdAt}|${id}`, 'utf8').toString('base64url')),
  // The hot feed's (score, id) cursors: scores out of a double's range, not numbers, or SQL.
  fc
    .tuple(
      fc.constantFrom('39800.5', '1e309', '-1e309', 'NaN', 'Infinity', '1e-400', '', "' OR 1=1--", '0x10'),
      fc.constantFrom('ffffffffffffffffffffffff', '', "' OR 1=1--", 'ffffffffffffffffffffffff|x'),
    )
    .map(([score, id]) => Buffer.from(`hot|${score}|${id}`, 'utf8').toString('base64url')),
  hostileString.filter((text) => text.length < 3000).map((text) => Buffer.from(text).toString('base64url')),
);

/**
 * A raw query string (without `?`): known keys in odd forms, repeated keys, prototype keys,
 * hostile values, and sometimes a real value (`valid`: ids, cursors) so the queries behind are reached.
 */
export function hostileQuery(known: readonly string[], valid: readonly string[] = ['1']): fc.Arbitrary<string> {
  const keys = known.length > 0 ? known : ['page'];
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...keys) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), fc.constantFrom('[]', '[0]', '[a]', '.x', '%5B%5D'))
        .map(([name, suffix]) => name + suffix),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '__proto__',
        '__proto__[polluted]',
        'constructor[prototype][polluted]',
        'constructor',
        'prototype',
        '',
        '%00',
        '%',
      ),
    },
    { weight: 1, arbitrary: hostileString.filter((text) => text.length < 500).map(percentEncode) },
  );
  const value = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...QUERY_VALUES) },
    { weight: 2, arbitrary: fc.constantFrom(...valid) },
    { weight: 2, arbitrary: hostileCursor },
    { weight: 2, arbitrary: hostileString.filter((text) => text.length < 3000).map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom(201, 2000, 7000).map((length) => 'a'.repeat(length)) },
  );
  const entry = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(key, value).map(([name, text]) => `${name}=${text}`) },
    { weight: 1, arbitrary: key },
    { weight: 1, arbitrary: fc.constantFrom('&', '=', '==', '&&&', ';') },
  );
  return fc.array(entry, { maxLength: 6 }).map((entries) => entries.join('&'));
}

/** An HS256 token signed with `secret` (or, with alg none, unsigned). */
export function signToken(payload: object, secret: string, alg: 'HS256' | 'none' = 'HS256'): string {
  const head = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  if (alg === 'none') return `${head}.${body}.`;
  const signature = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
  return `${head}.${body}.${signature}`;
}

/**
 * An Authorization header: mostly the valid one (so handlers are reached), sometimes none (a
 * visitor), sometimes a broken or forged one. undefined means no header.
 */
export function authorization(valid: string, userId: string, secret: string): fc.Arbitrary<string | undefined> {
  const token = valid.slice('Bearer '.length);
  const now = Math.floor(Date.now() / 1000);
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant(valid) },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'Bearer',
        'Bearer ',
        'Bearer garbage',
        'Bearer a.b.c',
        `bearer ${token}`,
        `Bearer ${token}x`,
        `Bearer ${token} ${token}`,
        `Basic ${Buffer.from('user:pass').toString('base64')}`,
        `Bearer ${signToken({ sub: userId, iat: now }, secret, 'none')}`,
        `Bearer ${signToken({ sub: userId, iat: now }, 'another-secret-that-is-at-least-32-characters')}`,
        `Bearer ${signToken({ sub: userId, iat: now - 100, exp: now - 10 }, secret)}`,
        `Bearer ${signToken({ sub: "' OR 1=1--", iat: now }, secret)}`,
        `Bearer ${signToken({ sub: { $ne: null }, iat: now }, secret)}`,
        `Bearer ${signToken({ iat: now }, secret)}`,
        `Bearer ${'a'.repeat(8000)}`,
      ),
    },
  );
}

const MAGIC_BYTES: readonly Buffer[] = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  Buffer.from('GIF89a', 'latin1'),
  Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ', 'latin1'),
  Buffer.from('\u0000\u0000\u0000\u001cftypavif', 'latin1'),
  Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>', 'latin1'),
  Buffer.alloc(0),
];

/** File contents: real small images, cut short or with bytes flipped, or image magic followed by noise. */
export function hostileFile(realImages: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const real = fc.constantFrom(...realImages);
  return fc.oneof(
    { weight: 4, arbitrary: real },
    { weight: 2, arbitrary: fc.tuple(real, fc.nat()).map(([image, cut]) => image.subarray(0, cut % image.length)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(real, fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }))
        .map(([image, flips]) => {
          const copy = Buffer.from(image);
          for (const [at, byte] of flips) copy[at % copy.length] = byte;
          return copy;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...MAGIC_BYTES), fc.uint8Array({ maxLength: 2000 }))
        .map(([magic, noise]) => Buffer.concat([magic, noise])),
    },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  );
}

interface Part {
  name: string;
  filename: string | null;
  type: string | null;
  data: Buffer;
}

/**
 * A multipart/form-data request as raw bytes, with its Content-Type header: mostly one file in
 * the right field, sometimes extra parts, hostile names and filenames, a missing or wrong
 * boundary, or a body cut off part-way.
 */
export function hostileMultipart(realImages: readonly Buffer[]): fc.Arbitrary<{ type: string; body: Buffer }> {
  const printable = hostileString.filter((text) => text.length < 300);
  const part: fc.Arbitrary<Part> = fc.record({
    name: fc.oneof({ weight: 4, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: printable }),
    filename: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom('x.png', 'photo.jpg', 'x.svg', 'x.html') },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 2, arbitrary: printable },
    ),
    type: fc.oneof(
      fc.constantFrom('image/png', 'image/jpeg', 'image/svg+xml', 'text/html', 'application/octet-stream', null),
      printable,
    ),
    data: hostileFile(realImages),
  });
  const boundary = 'fuzz-boundary-7MA4YWxkTrZu0gW';
  return fc
    .record({
      parts: fc.oneof({ weight: 4, arbitrary: part.map((one) => [one]) }, fc.array(part, { maxLength: 3 })),
      header: fc.oneof(
        { weight: 6, arbitrary: fc.constant(`multipart/form-data; boundary=${boundary}`) },
        fc.constantFrom(
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'multipart/form-data; boundary=other',
          `multipart/form-data; boundary="${boundary}"`,
          `multipart/mixed; boundary=${boundary}`,
          `multipart/form-data; boundary=${boundary}; charset=utf-16`,
        ),
      ),
      cut: fc.option(fc.nat(), { freq: 5 }),
    })
    .map(({ parts, header, cut }) => {
      const chunks = parts.flatMap((one) => [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${one.name}"` +
            (one.filename === null ? '' : `; filename="${one.filename}"`) +
            (one.type === null ? '' : `\r\nContent-Type: ${one.type}`) +
            '\r\n\r\n',
          'utf8',
        ),
        one.data,
        Buffer.from('\r\n'),
      ]);
      const body = Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]);
      return { type: header, body: cut === null ? body : body.subarray(0, cut % (body.length + 1)) };
    });
}
