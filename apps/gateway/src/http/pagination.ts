import type { FastifyReply, FastifyRequest } from 'fastify';
import { baseUrl } from './links';

/**
 * Pagination headers of list responses: `X-Platform-Total` (matching rows),
 * `X-Platform-TotalPages`, and `Link` with prev/next pages (same query, page replaced).
 */
export function setPaginationHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  { total, page, perPage }: { total: number; page: number; perPage: number },
): void {
  const totalPages = perPage > 0 ? Math.ceil(total / perPage) : 0;
  reply.header('X-Platform-Total', String(total));
  reply.header('X-Platform-TotalPages', String(totalPages));
  const url = new URL(request.url, baseUrl(request));
  const pageUrl = (n: number) => {
    url.searchParams.set('page', String(n));
    return url.toString();
  };
  const links: string[] = [];
  if (page > 1 && totalPages > 0) links.push(`<${pageUrl(Math.min(page - 1, totalPages))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
  if (links.length) reply.header('Link', links.join(', '));
}
