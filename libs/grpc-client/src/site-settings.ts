import { CachedValue } from './cached-value';

const FALLBACK_MS = 5_000;

/**
 * A page of the store's site: `path` under the site URL, keeping the site's
 * own path (a store at `https://example.com/store` has its account page at
 * `/store/my-account/`; `new URL('/my-account/', site)` would drop `/store`).
 */
export function sitePageUrl(siteUrl: string, path: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

export interface SiteSettingsSnapshot {
  /** Without a trailing slash. */
  siteUrl: string;
  storeName: string;
}

/**
 * The store's site options (`site_url`, `store_name`, set by an admin through
 * `PATCH /platform/v1/settings`) as the customers service holds them
 * (`fetch`: its GetSiteSettings call): the source of every link and email a
 * service writes, never a request header. Cached `ttlMs`; `invalidate()` (on
 * customers.site_settings_updated) drops the copy at once. While customers
 * cannot answer, or without `fetch`, the service's configured fallback keeps
 * links working.
 */
export class SiteSettingsReader {
  private readonly cache: CachedValue<SiteSettingsSnapshot & { fallback: boolean }>;

  constructor(
    private readonly fetch: (() => Promise<Partial<SiteSettingsSnapshot> | undefined>) | undefined,
    private readonly fallback: SiteSettingsSnapshot,
    ttlMs = 30_000,
  ) {
    // The fallback is kept briefly only: customers is asked again within FALLBACK_MS, not every call.
    this.cache = new CachedValue(() => this.load(), ttlMs, (s) => (s.fallback ? Math.min(FALLBACK_MS, ttlMs) : ttlMs));
  }

  async read(): Promise<SiteSettingsSnapshot> {
    const { siteUrl, storeName } = await this.cache.get();
    return { siteUrl, storeName };
  }

  invalidate(): void {
    this.cache.invalidate();
  }

  private async load(): Promise<SiteSettingsSnapshot & { fallback: boolean }> {
    let read: SiteSettingsSnapshot = this.fallback;
    let fallback = true;
    if (this.fetch) {
      try {
        const settings = await this.fetch();
        read = { siteUrl: settings?.siteUrl || this.fallback.siteUrl, storeName: settings?.storeName || this.fallback.storeName };
        fallback = false;
      } catch {
        // customers unavailable: the fallback now, asked again soon
      }
    }
    return { siteUrl: read.siteUrl.replace(/\/+$/, ''), storeName: read.storeName, fallback };
  }
}
