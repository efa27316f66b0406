import { anonymousCaller, type CallerContext } from '@storefront/grpc-client';
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
  private value: customers.SiteSettings | undefined;
  private fetchedAt = 0;
  private failedAt = 0;
  private stale = false;
  private pending: Promise<customers.SiteSettings> | undefined;

  constructor(
    private readonly settings: CustomersClients['settings'],
    private readonly ttlMs: number,
    private readonly logger?: Logger,
  ) {}

  async get(caller: CallerContext = anonymousCaller()): Promise<customers.SiteSettings> {
    if (this.value && Date.now() - this.fetchedAt < this.ttlMs) return this.value;
    if (this.value && Date.now() - this.failedAt < RETRY_AFTER_FAILURE_MS) return this.value;
    this.pending ??= this.settings
      .getSiteSettings({}, caller)
      .then(({ settings }) => {
        this.value = settings!;
        this.fetchedAt = Date.now();
        if (this.stale) this.logger?.info('site settings fresh again');
        this.stale = false;
        return this.value;
      })
      .finally(() => (this.pending = undefined));
    try {
      return await this.pending;
    } catch (err) {
      this.failedAt = Date.now();
      if (!this.value) throw err;
      if (!this.stale) this.logger?.warn({ err }, 'site settings unavailable; serving the last copy');
      this.stale = true;
      return this.value;
    }
  }

  invalidate(): void {
    // Keep the copy for outages, but make the next read fetch a fresh one.
    this.fetchedAt = 0;
  }

  /** Drops the cached copy whenever any replica's customers service changes the options. */
  subscribe(transport: EventTransport): () => void {
    const event = CustomerEvents.siteSettingsUpdated;
    return transport.subscribe(transport.subjectFor(event.subject), () => this.invalidate());
  }
}
