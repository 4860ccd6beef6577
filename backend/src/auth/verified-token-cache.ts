import { Strategy } from 'passport-jwt';

/** The claims the cache needs to decide, on a later request, whether a token is still in date. */
interface Claims {
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
}

type Verifier = (
  token: string,
  key: unknown,
  options: { maxAge?: unknown },
  done: (error: Error | null, payload?: unknown) => void,
) => void;

interface Verified {
  payload: unknown;
  /** What it was verified with: another key or other options never reuse it. */
  key: unknown;
  options: unknown;
  /** Seconds since the epoch: in date from notBefore (inclusive) to notAfter (exclusive). */
  notBefore: number;
  notAfter: number;
}

const MAX_ENTRIES = 10_000;

/**
 * Remembers tokens whose signature passport-jwt's verifier (jsonwebtoken) has accepted, so a token
 * sent again is not decoded and HMAC-checked again: that was a tenth of the CPU of a like
 * (docs/performance.md). A token is the exact string that was verified, so its signature holds
 * for as long as the key does; what changes with time — exp, the 30-day age limit, nbf — is checked
 * again on every use, with jsonwebtoken's rules (expired once now ≥ exp or now ≥ iat + maxAge).
 * Anything not verified (bad signature, alg none, expired…) is never stored and goes to the
 * library each time. Revocation is not a signature matter: JwtStrategy.validate reads the account
 * and its token_version on every request either way.
 *
 * passport-jwt exposes its verifier as `Strategy.JwtVerifier` for injection; this wraps it once per
 * process. Bounded: the oldest entries go first past 10,000 (about 4 MB).
 */
export function cacheVerifiedTokens(): void {
  const strategy = Strategy as unknown as { JwtVerifier: Verifier & { cached?: true } };
  if (strategy.JwtVerifier.cached) return;
  const verify = strategy.JwtVerifier;
  const verified = new Map<string, Verified>();

  const cachedVerifier: Verifier & { cached?: true } = (token, key, options, done) => {
    const now = Math.floor(Date.now() / 1000);
    const hit = verified.get(token);
    if (hit && hit.key === key && hit.options === options && now >= hit.notBefore && now < hit.notAfter) {
      done(null, hit.payload);
      return;
    }
    verify(token, key, options, (error, payload) => {
      if (!error) remember(token, { payload, key, options, ...inDate(payload, options.maxAge) });
      done(error, payload);
    });
  };
  cachedVerifier.cached = true;
  strategy.JwtVerifier = cachedVerifier;

  function remember(token: string, entry: Verified): void {
    // Only tokens with both limits are kept: every token we sign has exp and iat (maxAge needs iat).
    if (!Number.isFinite(entry.notAfter)) return;
    verified.delete(token);
    if (verified.size >= MAX_ENTRIES) verified.delete(verified.keys().next().value as string);
    verified.set(token, entry);
  }
}

function inDate(payload: unknown, maxAge: unknown): { notBefore: number; notAfter: number } {
  const claims = (typeof payload === 'object' && payload !== null ? payload : {}) as Claims;
  const number = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
  const exp = number(claims.exp);
  const iat = number(claims.iat);
  const ageLimit = number(maxAge);
  const ageEnd = ageLimit !== undefined && iat !== undefined ? iat + ageLimit : undefined;
  return {
    notBefore: number(claims.nbf) ?? -Infinity,
    notAfter: exp !== undefined && ageEnd !== undefined ? Math.min(exp, ageEnd) : NaN,
  };
}
