import { anonymousCaller, CachedValue } from '@storefront/grpc-client';
import type { EventTransport } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events/customers';
import type { customers } from '@storefront/proto/customers';
import type { Logger } from 'pino';
import type { CustomersClients } from './clients';

/** After a failed fetch, requests use the last copy (or the fallback) without asking again for this long. */
const RETRY_AFTER_FAILURE_MS = 1000;

/**
 * The site options responses are built with (site URL for `link`s), cached so
 * a catalog read costs no extra call to the customers service. A change is
 * published as `customers.site_settings_updated`, which drops the copy at once
 * on every gateway; the TTL bounds staleness should an event be missed.
 *
 * Presentation data only: while the customers service is down the last copy
 * is served stale (logged once per outage) instead of failing product reads.
 */
export class SiteSettingsCache {
  private readonly cache: CachedValue<customers.SiteSettings>;
  private failedAt = 0;
  private stale = false;

  constructor(
    settings: CustomersClients['settings'],
    ttlMs: number,
    private readonly logger?: Logger,
  ) {
    this.cache = new CachedValue(() => settings.getSiteSettings({}, anonymousCaller()).then(({ settings: s }) => s!), ttlMs);
  }

  async get(): Promise<customers.SiteSettings> {
    const last = this.cache.last;
    if (last && Date.now() - this.failedAt < RETRY_AFTER_FAILURE_MS) return last;
    try {
      const value = await this.cache.get();
      if (this.stale) this.logger?.info('site settings fresh again');
      this.stale = false;
      return value;
    } catch (err) {
      this.failedAt = Date.now();
      if (!last) throw err;
      if (!this.stale) this.logger?.warn({ err }, 'site settings unavailable; serving the last copy');
      this.stale = true;
      return last;
    }
  }

  /** Keeps the copy for outages, but makes the next read fetch a fresh one. */
  invalidate(): void {
    this.cache.invalidate();
  }

  /** Drops the cached copy whenever any replica's customers service changes the options. */
  subscribe(transport: EventTransport): () => void {
    const event = CustomerEvents.siteSettingsUpdated;
    return transport.subscribe(transport.subjectFor(event.subject), () => this.invalidate());
  }
}
