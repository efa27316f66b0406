import { sitePageUrl, type SiteSettingsSnapshot } from '@storefront/grpc-client';

/** A page of the store's site (`/my-account/`): under the site URL's own path, if it has one. */
export function sitePage(site: SiteSettingsSnapshot, path: string): string {
  return sitePageUrl(site.siteUrl, path);
}
