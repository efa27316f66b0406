import { anonymousCaller, bindClient, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import type { SitePort } from '../domain';

const TTL_MS = 5_000;

/**
 * Site options read from the customers service (briefly cached), falling back
 * to SHOP_SITE_URL when it cannot be asked. Never derived from request headers.
 */
export function sitePort(channel: Channel | undefined, fallbackUrl: string): SitePort {
  const client = channel && bindClient(channel, customers.SettingsServiceService);
  let cached: { siteUrl: string; storeName: string; at: number } | undefined;
  const read = async () => {
    if (cached && Date.now() - cached.at < TTL_MS) return cached;
    let siteUrl = fallbackUrl;
    let storeName = '';
    if (client) {
      try {
        const { settings } = await client.getSiteSettings({}, anonymousCaller('payments'));
        if (settings?.siteUrl) siteUrl = settings.siteUrl;
        storeName = settings?.storeName ?? '';
      } catch {
        // customers unavailable: the configured fallback keeps links working
      }
    }
    cached = { siteUrl: siteUrl.replace(/\/+$/, ''), storeName, at: Date.now() };
    return cached;
  };
  return {
    siteUrl: async () => (await read()).siteUrl,
    storeName: async () => (await read()).storeName,
  };
}
