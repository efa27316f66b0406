import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrl } from './links';

/**
 * Pagination headers of list responses: `X-Platform-Total` (matching rows),
 * `X-Platform-TotalPages`, and `Link` with prev/next pages (same query, page replaced).
 */
export function setPaginationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  page: { total: number; page: number; perPage: number },
): void {
  reply.headers(paginationHeaders(request, page));
}

/** The headers of a list that is never paged: all of it on one page. */
export function setWholeListHeaders(request: FastifyRequest, reply: FastifyReply, count: number): void {
  setPaginationHeaders(request, reply, { total: count, page: 1, perPage: Math.max(count, 1) });
}

export function paginationHeaders(
  request: FastifyRequest,
  { total, page, perPage }: { total: number; page: number; perPage: number },
): Record<string, string> {
  const totalPages = perPage > 0 ? Math.ceil(total / perPage) : 0;
  const headers: Record<string, string> = {
    'X-Platform-Total': String(total),
    'X-Platform-TotalPages': String(totalPages),
  };
  // The site root plus the request's path (a path like `//evil.example/x` stays a path).
  let url: URL;
  try {
    url = new URL(baseUrl(request) + (request.url.startsWith('/') ? request.url : `/${request.url}`));
  } catch {
    return headers;
  }
  // Only a route that takes `offset` pages by it; elsewhere the parameter is ignored, and so are its links.
  const offset = acceptsOffset(request) ? Number(url.searchParams.get('offset') ?? 0) : 0;
  if (Number.isSafeInteger(offset) && offset > 0) {
    // `offset` replaces `page`: the neighbours are a page's length either side of it.
    const at = (n: number) => {
      url.searchParams.set('offset', String(n));
      return url.toString();
    };
    const links: string[] = [];
    if (perPage > 0) links.push(`<${at(Math.max(0, offset - perPage))}>; rel="prev"`);
    if (perPage > 0 && offset + perPage < total) links.push(`<${at(offset + perPage)}>; rel="next"`);
    if (links.length) headers.Link = links.join(', ');
    return headers;
  }
  const pageUrl = (n: number) => {
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const links: string[] = [];
  if (page > 1 && totalPages > 0) links.push(`<${pageUrl(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return headers;
}

function acceptsOffset(request: FastifyRequest): boolean {
  const query = request.routeOptions.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
  return !!query?.properties && 'offset' in query.properties;
}
