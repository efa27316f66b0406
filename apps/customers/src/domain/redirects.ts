import { sitePageUrl } from '@storefront/grpc-client';

/** The dashboard (customers) or admin area (administrators) on the store's site. */
export function defaultRedirect(siteUrl: string, isAdmin: boolean): string {
  return sitePageUrl(siteUrl, isAdmin ? '/admin/' : '/my-account/');
}

/**
 * A requested redirect is honoured only when it stays on the store's own
 * origin (no open redirects); relative paths resolve against the site URL.
 */
export function safeRedirect(requested: string, siteUrl: string, fallback: string): string {
  if (!requested) return fallback;
  try {
    if (requested.startsWith('//')) return fallback;
    const target = new URL(requested, siteUrl);
    return target.origin === new URL(siteUrl).origin ? target.toString() : fallback;
  } catch {
    return fallback;
  }
}
