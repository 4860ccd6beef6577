import { JwtService } from '@nestjs/jwt';
import { Strategy } from 'passport-jwt';
import type { AdminPolicy } from '../admin/admin-policy';
import type { UserRow } from '../database/database.types';
import type { UsersRepository } from '../users/users.repository';
import { JwtStrategy } from './jwt.strategy';
import { TokenAccounts } from './token-accounts';
import { VerifiedTokenCache } from './verified-token-cache';

const NOW = 1_800_000_000; // seconds
const MAX_AGE = 30 * 24 * 3600;

beforeEach(() => jest.useFakeTimers({ now: NOW * 1000 }));
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('VerifiedTokenCache', () => {
  const payload = (claims: Record<string, number | string> = {}) => ({
    sub: 'u1',
    iat: NOW - 10,
    exp: NOW + 60,
    ...claims,
  });

  it('answers a token it was given while the token is in date', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    cache.remember('t', payload());
    expect(cache.get('t')).toMatchObject({ sub: 'u1' });
    expect(cache.get('other')).toBeUndefined();
  });

  it('no longer answers once the token has expired', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    cache.remember('t', payload());
    jest.setSystemTime((NOW + 60) * 1000);
    expect(cache.get('t')).toBeUndefined();
  });

  it('no longer answers once the token is older than the maximum age, whatever its exp', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    cache.remember('t', payload({ exp: NOW + 365 * 24 * 3600 }));
    jest.setSystemTime((NOW - 10 + MAX_AGE - 1) * 1000);
    expect(cache.get('t')).toBeDefined();
    jest.setSystemTime((NOW - 10 + MAX_AGE) * 1000);
    expect(cache.get('t')).toBeUndefined();
  });

  it('does not answer a token before its nbf', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    cache.remember('t', payload({ nbf: NOW + 5 }));
    expect(cache.get('t')).toBeUndefined();
    jest.setSystemTime((NOW + 5) * 1000);
    expect(cache.get('t')).toBeDefined();
  });

  it('does not remember a token without exp or iat', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    cache.remember('no-exp', { sub: 'u1', iat: NOW - 10 });
    cache.remember('no-iat', { sub: 'u1', exp: NOW + 60 });
    expect(cache.size).toBe(0);
  });

  it('keeps at most 10,000 tokens, dropping the oldest first', () => {
    const cache = new VerifiedTokenCache(MAX_AGE);
    for (let i = 0; i <= 10_000; i += 1) cache.remember(`t${i}`, payload());
    expect(cache.size).toBe(10_000);
    expect(cache.get('t0')).toBeUndefined();
    expect(cache.get('t1')).toBeDefined();
    expect(cache.get('t10000')).toBeDefined();
  });
});

describe('JwtStrategy with its token cache', () => {
  const SECRET = 'a-secret-long-enough-for-the-tests-0123456789';
  const user = { id: 'u1', user_name: 'ann', token_version: 0 } as UserRow;
  const findById = jest.fn((_id: string) => Promise.resolve(user));
  const users = { findById } as unknown as UsersRepository;
  const adminPolicy = { roleOf: () => 'user' } as unknown as AdminPolicy;

  type Outcome = { success: unknown } | { fail: unknown } | { error: unknown };

  /** What passport does for each request: a copy of the strategy with its outcome actions. */
  function authenticate(strategy: JwtStrategy, token: string): Promise<Outcome> {
    return new Promise((resolve) => {
      const attempt = Object.assign(Object.create(strategy) as JwtStrategy, {
        success: (success: unknown) => resolve({ success }),
        fail: (fail: unknown) => resolve({ fail }),
        error: (error: unknown) => resolve({ error }),
      });
      attempt.authenticate({ headers: { authorization: `Bearer ${token}` } });
    });
  }

  function sign(claims: object = { sub: 'u1', ver: 0 }, secret = SECRET): string {
    return new JwtService().sign(claims, { secret, algorithm: 'HS256', expiresIn: 60 });
  }

  /** Counts the library's verifications (its injection point, replaced in tests only). */
  function countVerifications(): jest.SpyInstance {
    return jest.spyOn(Strategy as unknown as { JwtVerifier: (...args: unknown[]) => void }, 'JwtVerifier');
  }

  it('verifies a token sent again only once while it is in date, and reads the account each time', async () => {
    const strategy = new JwtStrategy(SECRET, new TokenAccounts(users, adminPolicy));
    const verifier = countVerifications();
    const token = sign();
    findById.mockClear();
    await expect(authenticate(strategy, token)).resolves.toEqual({
      success: { id: 'u1', userName: 'ann', role: 'user' },
    });
    await expect(authenticate(strategy, token)).resolves.toEqual({
      success: { id: 'u1', userName: 'ann', role: 'user' },
    });
    expect(verifier).toHaveBeenCalledTimes(1);
    expect(findById).toHaveBeenCalledTimes(2);
  });

  it('sends an expired token to the library again, which refuses it', async () => {
    const strategy = new JwtStrategy(SECRET, new TokenAccounts(users, adminPolicy));
    const verifier = countVerifications();
    const token = sign();
    await authenticate(strategy, token);
    jest.setSystemTime((NOW + 60) * 1000);
    const outcome = await authenticate(strategy, token);
    expect(verifier).toHaveBeenCalledTimes(2);
    expect(outcome).toEqual({ fail: expect.objectContaining({ name: 'TokenExpiredError' }) as unknown });
  });

  it('never remembers a token the library refused', async () => {
    const strategy = new JwtStrategy(SECRET, new TokenAccounts(users, adminPolicy));
    const verifier = countVerifications();
    const forged = sign({ sub: 'u1', ver: 0 }, 'another-secret-long-enough-for-the-tests-0123');
    await expect(authenticate(strategy, forged)).resolves.toEqual({ fail: expect.any(Error) as unknown });
    await expect(authenticate(strategy, forged)).resolves.toEqual({ fail: expect.any(Error) as unknown });
    expect(verifier).toHaveBeenCalledTimes(2);
  });

  it('does not reuse a verification made by a strategy with another key', async () => {
    const mine = new JwtStrategy(SECRET, new TokenAccounts(users, adminPolicy));
    const other = new JwtStrategy(
      'another-secret-long-enough-for-the-tests-0123',
      new TokenAccounts(users, adminPolicy),
    );
    const token = sign();
    await expect(authenticate(mine, token)).resolves.toHaveProperty('success');
    await expect(authenticate(other, token)).resolves.toHaveProperty('fail');
  });

  it('fails a remembered token whose account has signed out everywhere since', async () => {
    const strategy = new JwtStrategy(SECRET, new TokenAccounts(users, adminPolicy));
    const token = sign();
    await authenticate(strategy, token);
    findById.mockResolvedValueOnce({ ...user, token_version: 1 });
    await expect(authenticate(strategy, token)).resolves.toEqual({ fail: undefined });
  });
});
