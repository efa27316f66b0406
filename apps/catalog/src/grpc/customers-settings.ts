import { DomainError } from '@storefront/errors';
import { bindClient, type CallerContext, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto';
import type { Logger } from 'pino';
import type { StoreSettings } from '../domain';

const SERVICE_CALLER: CallerContext = { userId: 0, login: '', roles: [], capabilities: [], requestId: 'catalog' };

/** Without a customers service (a catalog tested alone): the customers service's own default. */
const STANDALONE_CURRENCY = 'USD';

export interface CachedStoreSettings extends StoreSettings {
  /** customers.site_settings_updated: the next read asks again. */
  invalidate(): void;
}

/**
 * The store currency, one source: the customers service's site settings
 * (`SettingsService.GetSiteSettings`), cached for `ttlMs` and dropped at once
 * when customers publishes `site_settings_updated`. While customers is down a
 * copy already held is served stale; without one, 503 `shop_service_unavailable`.
 */
export function customersStoreSettings(channel: Channel | undefined, ttlMs: number, logger: Logger): CachedStoreSettings {
  const client = channel && bindClient(channel, customers.SettingsServiceService);
  let value: string | undefined;
  let fetchedAt = 0;
  let pending: Promise<string> | undefined;
  return {
    async currency() {
      if (!client) return STANDALONE_CURRENCY;
      if (value && Date.now() - fetchedAt < ttlMs) return value;
      pending ??= client
        .getSiteSettings({}, SERVICE_CALLER)
        .then(({ settings }) => {
          value = settings?.currency || STANDALONE_CURRENCY;
          fetchedAt = Date.now();
          return value;
        })
        .catch((err: unknown) => {
          if (value) {
            logger.warn({ err }, 'customers settings unavailable; serving the cached store currency');
            return value;
          }
          throw new DomainError('shop_service_unavailable', 503, 'The store settings are unavailable; retry shortly.', {
            service: 'customers',
          });
        })
        .finally(() => (pending = undefined));
      return pending;
    },
    invalidate() {
      fetchedAt = 0;
    },
  };
}
