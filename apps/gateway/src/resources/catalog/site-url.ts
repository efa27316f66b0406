import type { FastifyRequest } from 'fastify';
import { baseUrl } from '../../http/links';
import type { SiteSettingsCache } from '../../site-settings';

/**
 * The storefront's site URL (host-platform option `site_url`), without a
 * trailing slash: the base of the `link` of products, coupons and terms. The
 * request's own origin stands in when the option is empty.
 */
export async function siteUrlOf(site: SiteSettingsCache, request: FastifyRequest): Promise<string> {
  const settings = await site.get();
  return (settings.siteUrl || baseUrl(request)).replace(/\/+$/, '');
}
