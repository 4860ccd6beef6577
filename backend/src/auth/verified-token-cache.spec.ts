import { Strategy } from 'passport-jwt';
import { cacheVerifiedTokens } from './verified-token-cache';

type Done = (error: Error | null, payload?: unknown) => void;
type Verifier = (token: string, key: unknown, options: { maxAge?: number }, done: Done) => void;
const strategy = Strategy as unknown as { JwtVerifier: Verifier };

const NOW = 1_800_000_000; // seconds
const KEY = { name: 'key' };
const OPTIONS = { maxAge: 30 * 24 * 3600 };

/** The library's verifier stand-in: accepts `good-*` tokens with the given claims, counts its calls. */
const library = { calls: 0, claims: { sub: 'u1', iat: NOW - 10, exp: NOW + 60 } as Record<string, number | string> };

function verify(token: string, key: unknown = KEY, options: { maxAge?: number } = OPTIONS): Promise<unknown> {
  return new Promise((resolve, reject) =>
    strategy.JwtVerifier(token, key, options, (error, payload) => (error ? reject(error) : resolve(payload))),
  );
}

beforeAll(() => {
  strategy.JwtVerifier = (token, _key, _options, done) => {
    library.calls += 1;
    if (token.startsWith('good-')) done(null, { ...library.claims });
    else done(new Error('invalid signature'));
  };
  cacheVerifiedTokens();
  cacheVerifiedTokens(); // a second strategy instance must not wrap it twice
});

beforeEach(() => {
  library.calls = 0;
  library.claims = { sub: 'u1', iat: NOW - 10, exp: NOW + 60 };
  jest.useFakeTimers({ now: NOW * 1000 });
});

afterEach(() => jest.useRealTimers());

describe('cacheVerifiedTokens', () => {
  it('asks the library once for a token sent again while it is in date', async () => {
    await expect(verify('good-1')).resolves.toMatchObject({ sub: 'u1' });
    await expect(verify('good-1')).resolves.toMatchObject({ sub: 'u1' });
    expect(library.calls).toBe(1);
  });

  it('asks the library again once the token has expired', async () => {
    await verify('good-2');
    jest.setSystemTime((NOW + 60) * 1000);
    await verify('good-2');
    expect(library.calls).toBe(2);
  });

  it('asks the library again once the token is older than the maximum age, whatever its exp', async () => {
    library.claims = { sub: 'u1', iat: NOW - 10, exp: NOW + 365 * 24 * 3600 };
    await verify('good-3');
    jest.setSystemTime((NOW - 10 + OPTIONS.maxAge) * 1000);
    await verify('good-3');
    expect(library.calls).toBe(2);
  });

  it('does not use a token before its nbf', async () => {
    library.claims = { sub: 'u1', iat: NOW - 10, exp: NOW + 60, nbf: NOW + 5 };
    await verify('good-4');
    await verify('good-4');
    expect(library.calls).toBe(2);
  });

  it('never remembers a token the library refused', async () => {
    await expect(verify('forged')).rejects.toThrow('invalid signature');
    await expect(verify('forged')).rejects.toThrow('invalid signature');
    expect(library.calls).toBe(2);
  });

  it('does not reuse a verification made with another key or other options', async () => {
    await verify('good-5');
    await verify('good-5', { name: 'other key' });
    await verify('good-5', KEY, { maxAge: 60 });
    expect(library.calls).toBe(3);
  });

  it('does not remember a token without exp or iat', async () => {
    library.claims = { sub: 'u1', iat: NOW - 10 };
    await verify('good-6');
    await verify('good-6');
    expect(library.calls).toBe(2);
  });
});
