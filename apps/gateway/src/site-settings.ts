import { anonymousCaller, type CallerContext } from '@storefront/grpc-client';
import type { EventTransport } from '@storefront/events';
import { CustomerEvents } from '@storefront/domain-events';
import type { customers } from '@storefront/proto';
import type { CustomersClients } from './clients';

/**
 * The site options responses are built with (site URL for `link`s), cached so
 * a catalog read costs no extra call to the customers service. A change is
 * published as `customers.site_settings_updated`, which drops the copy at once
 * on every gateway; the TTL bounds staleness should an event be missed.
 */
export class SiteSettingsCache {
  private value: customers.SiteSettings | undefined;
  private fetchedAt = 0;
  private pending: Promise<customers.SiteSettings> | undefined;

  constructor(
    private readonly settings: CustomersClients['settings'],
    private readonly ttlMs: number,
  ) {}

  async get(caller: CallerContext = anonymousCaller()): Promise<customers.SiteSettings> {
    if (this.value && Date.now() - this.fetchedAt < this.ttlMs) return this.value;
    this.pending ??= this.settings
      .getSiteSettings({}, caller)
      .then(({ settings }) => {
        this.value = settings!;
        this.fetchedAt = Date.now();
        return this.value;
      })
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  invalidate(): void {
    this.value = undefined;
  }

  /** Drops the cached copy whenever any replica's customers service changes the options. */
  subscribe(transport: EventTransport): () => void {
    const event = CustomerEvents.siteSettingsUpdated;
    return transport.subscribe(transport.subjectFor(event.subject), () => this.invalidate());
  }
}
