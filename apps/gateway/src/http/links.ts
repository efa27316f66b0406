import type { FastifyRequest } from 'fastify';

/** Absolute base URL of this request (honours X-Forwarded-* only from trusted proxies). */
export function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

export type Links = Record<string, Array<{ href: string; [key: string]: unknown }>>;

/** `_links.self` and `_links.collection` of a custom-controller resource. */
export function resourceLinks(request: FastifyRequest, self: string, collection: string, extra: Links = {}): Links {
  const base = baseUrl(request);
  return { self: [{ href: base + self }], collection: [{ href: base + collection }], ...extra };
}
