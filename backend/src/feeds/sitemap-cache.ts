import type { SitemapKey, SitemapKind } from './feeds.repository';

export type PageStarts = Readonly<Record<SitemapKind, readonly SitemapKey[]>>;

/**
 * The sitemaps in memory for a short time (SITEMAP_CACHE_TTL_MS): the page starts (one pass over
 * each list's index) and the rendered files, keyed by origin and path. A TTL rather than
 * invalidation on writes: crawlers read sitemaps seldom and a few minutes late is as good as now,
 * while every post, sign-up and tag write would otherwise have to know about sitemaps (and other
 * instances would not hear of them). New page starts empty the rendered files, so the index and
 * its pages are always cut the same way. Files are held up to `maxBytes` (oldest dropped first).
 */
export class SitemapCache {
  private starts: { value: Promise<PageStarts>; storedAt: number } | null = null;
  private readonly files = new Map<string, { body: string; storedAt: number }>();
  private bytes = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxBytes = 16 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  /** Crawlers fetch an index and its pages together: requests arriving during one pass share it. */
  pageStarts(compute: () => Promise<PageStarts>): Promise<PageStarts> {
    if (this.starts && this.fresh(this.starts.storedAt)) return this.starts.value;
    const value = compute().then((starts) => {
      this.files.clear();
      this.bytes = 0;
      return starts;
    });
    this.starts = { value, storedAt: this.now() };
    // A failed pass is not kept; with no TTL, nothing is (each request makes its own).
    value.catch(() => {
      if (this.starts?.value === value) this.starts = null;
    });
    if (this.ttlMs <= 0) this.starts = null;
    return value;
  }

  async file(key: string, render: () => Promise<string>): Promise<string> {
    const hit = this.files.get(key);
    if (hit && this.fresh(hit.storedAt)) return hit.body;
    const body = await render();
    if (this.ttlMs > 0 && body.length <= this.maxBytes / 2) {
      if (hit) this.drop(key, hit.body);
      this.files.set(key, { body, storedAt: this.now() });
      this.bytes += body.length;
      for (const [oldest, entry] of this.files) {
        if (this.bytes <= this.maxBytes) break;
        this.drop(oldest, entry.body);
      }
    }
    return body;
  }

  private fresh(storedAt: number): boolean {
    return this.now() - storedAt < this.ttlMs;
  }

  private drop(key: string, body: string): void {
    this.files.delete(key);
    this.bytes -= body.length;
  }
}
