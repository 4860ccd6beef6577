/**
 * mongoexport writes MongoDB Extended JSON: v2 (canonical or relaxed) since the 100.x database
 * tools, v1 before them. Only the wrappers a TechIt export can hold become plain values: an
 * ObjectId its 24-hex text (our ids are that text), a date a Date, a number a number. Any other
 * wrapper stays the object it is, and the planner treats it as a value of the wrong type.
 */
export function decodeExtendedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeExtendedJson);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const only = entries.length === 1 ? entries[0] : undefined;
  if (only) {
    const decoded = decodeWrapper(only[0], only[1]);
    if (decoded !== NOT_A_WRAPPER) return decoded;
  }
  // Object.fromEntries defines own properties, so a "__proto__" key stays a plain field.
  return Object.fromEntries(entries.map(([key, item]) => [key, decodeExtendedJson(item)]));
}

const NOT_A_WRAPPER = Symbol('not an Extended JSON wrapper');

function decodeWrapper(key: string, inner: unknown): unknown {
  switch (key) {
    case '$oid':
      return typeof inner === 'string' ? inner : NOT_A_WRAPPER;
    case '$date':
      return decodeDate(inner);
    case '$numberInt':
    case '$numberLong':
    case '$numberDouble':
    case '$numberDecimal':
      // "Infinity", "-Infinity" and "NaN" are what canonical form writes for those doubles.
      return typeof inner === 'string' ? Number(inner) : NOT_A_WRAPPER;
    default:
      return NOT_A_WRAPPER;
  }
}

/**
 * Relaxed v2 and v1 write an ISO 8601 string, canonical v2 `{"$numberLong": "<ms>"}`, and v1's
 * strict mode sometimes a bare number of milliseconds. An unreadable one is an invalid Date,
 * which the planner reports.
 */
function decodeDate(inner: unknown): unknown {
  if (typeof inner === 'string') return new Date(inner);
  if (typeof inner === 'number') return new Date(inner);
  if (inner !== null && typeof inner === 'object') {
    const long = (inner as Record<string, unknown>).$numberLong;
    if (typeof long === 'string' && Object.keys(inner).length === 1) return new Date(Number(long));
  }
  return NOT_A_WRAPPER;
}
