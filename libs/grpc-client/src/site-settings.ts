const FALLBACK_MS = 5_000;

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
  private cached: (SiteSettingsSnapshot & { at: number }) | undefined;
  private generation = 0;

  constructor(
    private readonly fetch: (() => Promise<Partial<SiteSettingsSnapshot> | undefined>) | undefined,
    private readonly fallback: SiteSettingsSnapshot,
    private readonly ttlMs = 30_000,
  ) {}

  async read(): Promise<SiteSettingsSnapshot> {
    if (this.cached && Date.now() - this.cached.at < this.ttlMs) return this.cached;
    const generation = this.generation;
    let read: SiteSettingsSnapshot = this.fallback;
    let answered = false;
    if (this.fetch) {
      try {
        const settings = await this.fetch();
        read = { siteUrl: settings?.siteUrl || this.fallback.siteUrl, storeName: settings?.storeName || this.fallback.storeName };
        answered = true;
      } catch {
        // customers unavailable: the fallback now, asked again next time
      }
    }
    // The fallback is kept briefly only (customers is asked again within FALLBACK_MS, not every call);
    // nothing is kept when a change was announced meanwhile.
    const at = answered ? Date.now() : Date.now() - this.ttlMs + Math.min(FALLBACK_MS, this.ttlMs);
    const snapshot = { siteUrl: read.siteUrl.replace(/\/+$/, ''), storeName: read.storeName, at };
    if (generation === this.generation) this.cached = snapshot;
    return snapshot;
  }

  invalidate(): void {
    this.generation++;
    this.cached = undefined;
  }
}
