import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The public root URL of this API (see installApiRoot). */
    siteRoot: string;
  }
}

/**
 * Absolute base URL for `_links`, `Link` headers and cache keys: the
 * configured public URL (SHOP_SITE_URL), else the address the gateway
 * listens on; never the request's Host header, which a client controls.
 * (Storefront page links — a product's `link` — use the site option
 * `site_url`, see resources/catalog/site-url.ts.)
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

/** Sets `request.siteRoot` on every request: `configured`, else the listening address (resolved once). */
export function installApiRoot(app: FastifyInstance, configured: string | undefined): void {
  let root = configured?.replace(/\/+$/, '');
  app.decorateRequest('siteRoot', '');
  app.addHook('onRequest', (request, _reply, done) => {
    root ??= listenRoot(app);
    request.siteRoot = root;
    done();
  });
}

function listenRoot(app: FastifyInstance): string {
  const address = app.server.address();
  if (!address || typeof address === 'string') return 'http://127.0.0.1:8080';
  const host = ['0.0.0.0', '::'].includes(address.address) ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

export type Links = Record<string, Array<{ href: string; [key: string]: unknown }>>;

/** `_links.self` and `_links.collection` of a custom-controller resource. */
export function resourceLinks(request: FastifyRequest, self: string, collection: string, extra: Links = {}): Links {
  const base = baseUrl(request);
  return { self: [{ href: base + self }], collection: [{ href: base + collection }], ...extra };
}
