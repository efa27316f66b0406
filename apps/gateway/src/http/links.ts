import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SiteSettingsCache } from '../site-settings';

declare module 'fastify' {
  interface FastifyRequest {
    /** The store's root URL (site settings), resolved once per request by installSiteRoot. */
    siteRoot: string;
  }
}

/**
 * Absolute base URL for links, redirects and cache keys: the configured site
 * URL (site settings, falling back to SHOP_SITE_URL), never the request's
 * Host header, which a client controls.
 */
export function baseUrl(request: FastifyRequest): string {
  return request.siteRoot || 'http://127.0.0.1:8080';
}

/**
 * The origin the request was addressed to (Host, or X-Forwarded-* from a
 * trusted proxy), for the same-origin check only; `undefined` when the Host
 * header is missing or malformed.
 */
export function requestOrigin(request: FastifyRequest): string | undefined {
  try {
    const host = request.host;
    if (!host) return undefined;
    const url = new URL(`${request.protocol}://${host}`);
    return url.origin;
  } catch {
    return undefined;
  }
}

/** Resolves `request.siteRoot` before every route (stale or fallback while customers is down; never fails). */
export function installSiteRoot(app: FastifyInstance, site: SiteSettingsCache): void {
  app.decorateRequest('siteRoot', '');
  app.addHook('onRequest', async (request) => {
    request.siteRoot = await site.siteRoot();
  });
}

export type Links = Record<string, Array<{ href: string; [key: string]: unknown }>>;

/** `_links.self` and `_links.collection` of a custom-controller resource. */
export function resourceLinks(request: FastifyRequest, self: string, collection: string, extra: Links = {}): Links {
  const base = baseUrl(request);
  return { self: [{ href: base + self }], collection: [{ href: base + collection }], ...extra };
}
