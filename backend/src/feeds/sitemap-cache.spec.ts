import { type PageStarts, SitemapCache } from './sitemap-cache';

const STARTS: PageStarts = { posts: [['2026-01-01T00:00:00.000Z', 'a']], profiles: [['b']], tags: [] };

describe('SitemapCache', () => {
  let clock = 0;
  const now = () => clock;

  beforeEach(() => {
    clock = 1_000;
  });

  it('keeps the page starts and files for the TTL, then builds them again', async () => {
    const cache = new SitemapCache(600_000, 1024, now);
    const compute = jest.fn(() => Promise.resolve(STARTS));
    const render = jest.fn(() => Promise.resolve('<urlset/>'));
    await cache.pageStarts(compute);
    await cache.file('http://x/sitemap.xml', render);
    clock += 599_999;
    expect(await cache.pageStarts(compute)).toBe(STARTS);
    expect(await cache.file('http://x/sitemap.xml', render)).toBe('<urlset/>');
    expect([compute.mock.calls.length, render.mock.calls.length]).toEqual([1, 1]);
    clock += 1;
    await cache.pageStarts(compute);
    await cache.file('http://x/sitemap.xml', render);
    expect([compute.mock.calls.length, render.mock.calls.length]).toEqual([2, 2]);
  });

  it('lets requests that arrive during a pass share it', async () => {
    const cache = new SitemapCache(600_000, 1024, now);
    let finish: (starts: PageStarts) => void = () => {};
    const compute = jest.fn(() => new Promise<PageStarts>((resolve) => (finish = resolve)));
    const both = Promise.all([cache.pageStarts(compute), cache.pageStarts(compute)]);
    finish(STARTS);
    expect(await both).toEqual([STARTS, STARTS]);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('keeps no failed pass, and nothing at all with a TTL of 0', async () => {
    const failing = new SitemapCache(600_000, 1024, now);
    await expect(failing.pageStarts(() => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const compute = jest.fn(() => Promise.resolve(STARTS));
    await failing.pageStarts(compute);
    expect(compute).toHaveBeenCalledTimes(1);

    const off = new SitemapCache(0, 1024, now);
    const render = jest.fn(() => Promise.resolve('<urlset/>'));
    await off.pageStarts(compute);
    await off.pageStarts(compute);
    await off.file('k', render);
    await off.file('k', render);
    expect([compute.mock.calls.length, render.mock.calls.length]).toEqual([3, 2]);
  });

  it('holds files up to its byte budget, dropping the oldest first', async () => {
    const cache = new SitemapCache(600_000, 10, now);
    const render = (body: string) => jest.fn(() => Promise.resolve(body));
    await cache.file('a', render('aaaa'));
    await cache.file('b', render('bbbb'));
    await cache.file('c', render('cccc'));
    const again = render('new');
    expect(await cache.file('a', again)).toBe('new');
    expect(again).toHaveBeenCalledTimes(1);
    const kept = render('unused');
    expect(await cache.file('c', kept)).toBe('cccc');
    expect(kept).not.toHaveBeenCalled();
  });
});
