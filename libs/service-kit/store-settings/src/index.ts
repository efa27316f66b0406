// A client of the customers service, in its own lib so a customers proto change marks only its users.
import { CustomerEvents } from '@storefront/domain-events/customers';
import { DomainError } from '@storefront/errors';
import { anonymousCaller, bindClient, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import type { ServiceContext } from '@storefront/service-kit';

/** Without a customers service (a service tested alone): the customers service's own default. */
const STANDALONE_CURRENCY = 'USD';

/** The store settings other services read; the one source is the customers service's site settings. */
export interface StoreSettings {
  /** ISO 4217 code of the store currency. */
  currency(): Promise<string>;
}

export interface CachedStoreSettings extends StoreSettings {
  /** customers.site_settings_updated: the next read asks again. */
  invalidate(): void;
}

/**
 * The store currency, one source: the customers service's site settings
 * (`SettingsService.GetSiteSettings`), cached for `ttlMs` and dropped at once
 * when customers publishes `site_settings_updated`. A copy already held is
 * served at once after its TTL and refreshed behind it (so a customers outage
 * never makes a price read wait for a deadline); without one, or right after
 * an invalidation, the read waits (falling back to the held copy), and 503
 * `shop_service_unavailable` if customers cannot answer.
 */
export function customersStoreSettings(channel: Channel | undefined, ttlMs: number, ctx: Pick<ServiceContext, 'logger' | 'name'>): CachedStoreSettings {
  const maybeClient = channel && bindClient(channel, customers.SettingsServiceService);
  const caller = anonymousCaller(ctx.name);
  let value: string | undefined;
  let fetchedAt = 0;
  let failing = false;
  let pending: Promise<string> | undefined;
  // Bumped by invalidate(): a read that started before a settings change answers its callers but is not kept.
  let generation = 0;
  const refresh = (client: NonNullable<typeof maybeClient>) => {
    const started = generation;
    return (pending ??= client
      .getSiteSettings({}, caller)
      .then(({ settings }) => {
        const currency = settings?.currency || STANDALONE_CURRENCY;
        if (started === generation) {
          value = currency;
          fetchedAt = Date.now();
        }
        failing = false;
        return currency;
      })
      .catch((err: unknown) => {
        if (value) {
          if (!failing) ctx.logger.warn({ err }, 'customers settings unavailable; serving the cached store currency');
          failing = true;
          return value;
        }
        throw new DomainError('shop_service_unavailable', 503, 'The store settings are unavailable; retry shortly.', {
          service: 'customers',
        });
      })
      .finally(() => {
        if (started === generation) pending = undefined;
      }));
  };
  return {
    async currency() {
      if (!maybeClient) return STANDALONE_CURRENCY;
      // None held yet, or just invalidated by a settings change: wait for the fresh value.
      if (value === undefined || fetchedAt === 0) return refresh(maybeClient);
      if (Date.now() - fetchedAt >= ttlMs) void refresh(maybeClient);
      return value;
    },
    invalidate() {
      generation++;
      fetchedAt = 0;
      pending = undefined;
    },
  };
}

/**
 * The store settings for a service, over its channel to customers (none: the
 * standalone default): the cache, invalidated on every replica by
 * customers.site_settings_updated (a broadcast, not a durable consumer: a
 * cache needs no inbox), unsubscribed on shutdown.
 */
export function storeSettings(ctx: ServiceContext, customersChannel: Channel | undefined, ttlMs: number): CachedStoreSettings {
  const store = customersStoreSettings(customersChannel, ttlMs, ctx);
  const stop = ctx.transport.subscribe(ctx.transport.subjectFor(CustomerEvents.siteSettingsUpdated.subject), () => store.invalidate());
  ctx.onShutdown(async () => stop());
  return store;
}
