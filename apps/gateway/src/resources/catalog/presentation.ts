import type { FastifyRequest } from 'fastify';

// Which `context` values show a field (host-platform schema convention).
export const ALL_CONTEXTS = ['view', 'edit', 'embed'];
export const VIEW_EDIT = ['view', 'edit'];
export const EDIT_ONLY = ['edit'];

/** What shaping a content-type record needs besides the record. */
export interface Presentation {
  request: FastifyRequest;
  /** view | edit | embed */
  context: string;
  /** Storefront site URL without trailing slash (see site-url.ts). */
  siteUrl: string;
}
