import { ReadCache } from './read-cache';

const reply = (body: string) => ({
  body: Buffer.from(body),
  etag: `W/"${body.length}"`,
  contentType: 'application/json; charset=utf-8',
});

describe('ReadCache', () => {
  it('answers what was stored until the TTL passes', () => {
    let now = 1_000;
    const cache = new ReadCache(5_000, 1024, () => now);
    cache.set('/api/posts', reply('page one'), cache.version);
    expect(cache.get('/api/posts')?.body.toString()).toBe('page one');
    now += 5_000;
    expect(cache.get('/api/posts')?.body.toString()).toBe('page one');
    now += 1;
    expect(cache.get('/api/posts')).toBeUndefined();
  });

  it('forgets everything when a write starts or ends', () => {
    const cache = new ReadCache(5_000);
    cache.set('/api/posts', reply('a'), cache.version);
    cache.set('/api/top-posts', reply('b'), cache.version);
    cache.invalidate();
    expect(cache.get('/api/posts')).toBeUndefined();
    expect(cache.get('/api/top-posts')).toBeUndefined();
  });

  it('does not keep a reply that was being built while a write happened', () => {
    const cache = new ReadCache(5_000);
    const startedAt = cache.version;
    cache.invalidate(); // a write began (or ended) meanwhile
    cache.set('/api/posts', reply('maybe stale'), startedAt);
    expect(cache.get('/api/posts')).toBeUndefined();
  });

  it('evicts the least recently used replies beyond its byte budget', () => {
    const cache = new ReadCache(5_000, 100);
    cache.set('/a', reply('x'.repeat(20)), cache.version);
    cache.set('/b', reply('y'.repeat(20)), cache.version);
    cache.set('/c', reply('z'.repeat(20)), cache.version);
    expect(cache.get('/a')).toBeDefined(); // /a is now the most recently used
    cache.set('/d', reply('w'.repeat(25)), cache.version);
    cache.set('/e', reply('v'.repeat(25)), cache.version);
    expect(cache.get('/b')).toBeUndefined();
    expect(cache.get('/a')).toBeDefined();
    expect(cache.get('/e')).toBeDefined();
  });

  it('never keeps a reply larger than a quarter of its budget', () => {
    const cache = new ReadCache(5_000, 100);
    cache.set('/big', reply('x'.repeat(26)), cache.version);
    expect(cache.get('/big')).toBeUndefined();
  });

  it('is off with a TTL of 0', () => {
    expect(new ReadCache(0).enabled).toBe(false);
  });
});
