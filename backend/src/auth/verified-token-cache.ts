/** The claims the cache needs to decide, on a later request, whether a token is still in date. */
interface Claims {
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
}

interface Verified {
  payload: object;
  /** Seconds since the epoch: in date from notBefore (inclusive) to notAfter (exclusive). */
  notBefore: number;
  notAfter: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Tokens whose signature passport-jwt's verifier (jsonwebtoken) has accepted, so a token sent again
 * is not decoded and HMAC-checked again: that was a tenth of the CPU of a like (docs/performance.md,
 * decision 020). A token is the exact string that was verified, so its signature holds for as long
 * as the key does; what changes with time — exp, the 30-day age limit, nbf — is checked again on
 * every use, with jsonwebtoken's rules (expired once now ≥ exp or now ≥ iat + maxAge). Only what
 * the library accepted is remembered; anything else (bad signature, alg none, expired…) goes to the
 * library each time. Revocation is not a signature matter: JwtStrategy reads the account and its
 * token_version on every request either way.
 *
 * One cache belongs to one JwtStrategy, so to one key and one set of verify options. Bounded: the
 * oldest entries go first past 10,000 (about 4 MB).
 */
export class VerifiedTokenCache {
  private readonly verified = new Map<string, Verified>();

  /** @param maxAgeSeconds the verifier's maxAge: no token is used longer than this after its iat. */
  constructor(private readonly maxAgeSeconds: number) {}

  /** The payload of a token verified before and still in date now, else undefined. */
  get(token: string): object | undefined {
    const hit = this.verified.get(token);
    if (hit === undefined) return undefined;
    const now = Math.floor(Date.now() / 1000);
    return now >= hit.notBefore && now < hit.notAfter ? hit.payload : undefined;
  }

  /** Call only with a token the library has just verified, and the payload it decoded from it. */
  remember(token: string, payload: object): void {
    const { notBefore, notAfter } = inDate(payload, this.maxAgeSeconds);
    // Only tokens with both limits are kept: every token we sign has exp and iat (maxAge needs iat).
    if (!Number.isFinite(notAfter)) return;
    this.verified.delete(token);
    if (this.verified.size >= MAX_ENTRIES) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, { payload, notBefore, notAfter });
  }

  get size(): number {
    return this.verified.size;
  }
}

function inDate(payload: object, maxAge: number): { notBefore: number; notAfter: number } {
  const claims = payload as Claims;
  const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
  const exp = number(claims.exp);
  const iat = number(claims.iat);
  const ageEnd = iat !== undefined ? iat + maxAge : undefined;
  return {
    notBefore: number(claims.nbf) ?? -Infinity,
    notAfter: exp !== undefined && ageEnd !== undefined ? Math.min(exp, ageEnd) : NaN,
  };
}
