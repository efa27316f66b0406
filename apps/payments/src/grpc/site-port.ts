import { anonymousCaller, bindClient, SiteSettingsReader, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import type { SitePort } from '../domain';

/** Site options from customers (SiteSettingsReader), SHOP_SITE_URL while it cannot be asked. */
export function sitePort(channel: Channel | undefined, fallbackUrl: string): SitePort & { invalidate(): void } {
  const client = channel && bindClient(channel, customers.SettingsServiceService);
  const fetch = client && (async () => (await client.getSiteSettings({}, anonymousCaller('payments'))).settings);
  const reader = new SiteSettingsReader(fetch, { siteUrl: fallbackUrl, storeName: '' });
  return {
    siteUrl: async () => (await reader.read()).siteUrl,
    storeName: async () => (await reader.read()).storeName,
    invalidate: () => reader.invalidate(),
  };
}
