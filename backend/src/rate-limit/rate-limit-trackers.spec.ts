import { sign } from 'jsonwebtoken';
import { addressTracker, RateLimitTrackers, type TrackedRequest } from './rate-limit-trackers';

const SECRET = 'rate-limit-secret-that-is-at-least-32-chars';
const trackers = new RateLimitTrackers(SECRET);

function requestWith(authorization?: string, body?: unknown): TrackedRequest {
  return { ip: '203.0.113.5', headers: authorization === undefined ? {} : { authorization }, body };
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('addressTracker', () => {
  it('counts an IPv4 address as itself, also when it arrives IPv4-mapped', () => {
    expect(addressTracker({ ip: '198.51.100.7' })).toBe('ip:198.51.100.7');
    expect(addressTracker({ ip: '::ffff:198.51.100.7' })).toBe('ip:198.51.100.7');
  });

  it('counts IPv6 addresses per /64, so rotating inside one block buys no fresh budget', () => {
    const first = addressTracker({ ip: '2001:db8:1:2::1' });
    expect(addressTracker({ ip: '2001:db8:1:2:ffff:ffff:ffff:ffff' })).toBe(first);
    expect(addressTracker({ ip: '2001:db8:1:3::1' })).not.toBe(first);
  });
});

describe('RateLimitTrackers.userOrIp', () => {
  it('counts a token this server signed by its user', () => {
    const token = sign({ sub: 'user-1' }, SECRET, { algorithm: 'HS256', expiresIn: '1h' });
    expect(trackers.userOrIp(requestWith(`Bearer ${token}`))).toBe('user:user-1');
    expect(trackers.userOrIp(requestWith(`bearer ${token}`))).toBe('user:user-1');
  });

  it.each([
    ['no token', undefined],
    ['a token signed with another secret', `Bearer ${sign({ sub: 'user-1' }, 'x'.repeat(40), { algorithm: 'HS256' })}`],
    ['an expired token', `Bearer ${sign({ sub: 'user-1', exp: Math.floor(Date.now() / 1000) - 60 }, SECRET)}`],
    ['an alg "none" token', `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'user-1' })}.`],
    ['an HS384 token with the right secret', `Bearer ${sign({ sub: 'user-1' }, SECRET, { algorithm: 'HS384' })}`],
    ['a token without a subject', `Bearer ${sign({ name: 'x' }, SECRET, { algorithm: 'HS256' })}`],
    ['garbage', 'Bearer not.a.token'],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('counts %s by the address', (_label, authorization) => {
    expect(trackers.userOrIp(requestWith(authorization))).toBe('ip:203.0.113.5');
  });
});

describe('RateLimitTrackers.userName', () => {
  it('names the same account whatever its case or surrounding spaces', () => {
    const key = trackers.userName(requestWith(undefined, { userName: 'Ada' }));
    expect(key).toMatch(/^user-name:[\w-]{43}$/);
    expect(trackers.userName(requestWith(undefined, { userName: '  ADA ' }))).toBe(key);
    expect(trackers.userName(requestWith(undefined, { userName: 'Bob' }))).not.toBe(key);
  });

  it('keeps the key short however long the name sent', () => {
    expect(trackers.userName(requestWith(undefined, { userName: 'a'.repeat(100_000) }))?.length).toBeLessThan(60);
  });

  it.each([
    ['no body', undefined],
    ['no userName', { password: 'x' }],
    ['a blank userName', { userName: '   ' }],
    ['a userName that is not text', { userName: ['Ada'] }],
  ])('names no account for %s', (_label, body) => {
    expect(trackers.userName(requestWith(undefined, body))).toBeNull();
  });
});
