import { badRequest, invalidParams } from '@storefront/errors';
import { isId } from '../shared/ids';
import { parseStatusFilter } from './post-status';
import {
  POST_ORDERBY,
  type Context,
  type PageRequest,
  type PostListQuery,
} from '../../persistence/post-list-query';

export { POST_ORDERBY, type Context, type PageRequest, type PostListQuery, type PostOrderby } from '../../persistence/post-list-query';

// Validation of the host platform's standard collection parameters. Bad values
// are 400 rest_invalid_param (contract "Smaller decisions": "1 to 100" rejects).

export const MAX_PER_PAGE = 100;
/** include/exclude/slug lists longer than this are refused: they would only bloat the SQL. */
export const MAX_LIST_PARAM = 100;
const MAX_SEARCH_LENGTH = 200;

export function parsePage(page: number | undefined, perPage: number | undefined, defaultPerPage = 10): PageRequest {
  const p = page ?? 1;
  const pp = perPage ?? defaultPerPage;
  const problems: Record<string, string> = {};
  if (!Number.isSafeInteger(p) || p < 1) problems.page = 'page must be 1 or more.';
  if (!Number.isSafeInteger(pp) || pp < 1 || pp > MAX_PER_PAGE) {
    problems.per_page = `per_page must be between 1 and ${MAX_PER_PAGE}.`;
  }
  if (Object.keys(problems).length) throw invalidParams(problems);
  return { page: p, perPage: pp };
}

export function totalPages(total: number, perPage: number): number {
  return Math.ceil(total / perPage);
}

/** Posts controller rule: asking for a page past the last one (when there are results) is an error. */
export function assertPageExists(request: PageRequest, total: number): void {
  if (total > 0 && request.page > totalPages(total, request.perPage)) {
    throw badRequest(
      'rest_post_invalid_page_number',
      'The page number requested is larger than the number of pages available.',
    );
  }
}

/** Positive ids, deduplicated, at most MAX_LIST_PARAM. */
export function parseIdList(field: string, ids: readonly number[]): number[] {
  if (ids.length > MAX_LIST_PARAM) throw invalidParams({ [field]: `${field} accepts at most ${MAX_LIST_PARAM} ids.` });
  if (ids.some((id) => !isId(id))) throw invalidParams({ [field]: `${field} must hold positive ids.` });
  return [...new Set(ids)];
}

export function parseSlugList(field: string, slugs: readonly string[]): string[] {
  if (slugs.length > MAX_LIST_PARAM) {
    throw invalidParams({ [field]: `${field} accepts at most ${MAX_LIST_PARAM} values.` });
  }
  return [...new Set(slugs.map((s) => s.trim().toLowerCase()).filter(Boolean))];
}

export function parseSearch(search: string): string {
  const trimmed = search.trim();
  if (trimmed.length > MAX_SEARCH_LENGTH) {
    throw invalidParams({ search: `search is limited to ${MAX_SEARCH_LENGTH} characters.` });
  }
  return trimmed;
}

export function parseOrder(value: string, fallback: 'asc' | 'desc'): 'asc' | 'desc' {
  if (!value) return fallback;
  if (value !== 'asc' && value !== 'desc') throw invalidParams({ order: 'order must be asc or desc.' });
  return value;
}

export function parseOrderby<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  if (!value) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalidParams({ orderby: `orderby must be one of ${allowed.join(', ')}.` });
  }
  return value as T;
}

export function parseContext(value: string): Context {
  if (!value) return 'view';
  if (value !== 'view' && value !== 'embed' && value !== 'edit') {
    throw invalidParams({ context: 'context must be view, embed or edit.' });
  }
  return value;
}

/** The collection parameters of products and coupons, as the gRPC request carries them. */
export interface PostCollectionInput {
  page?: number;
  perPage?: number;
  search: string;
  slug: string[];
  status: string[];
  orderby: string;
  order: string;
  include: number[];
  exclude: number[];
  context: string;
}

export function parsePostCollection(input: PostCollectionInput | undefined): PostListQuery {
  const q = input ?? {
    search: '',
    slug: [],
    status: [],
    orderby: '',
    order: '',
    include: [],
    exclude: [],
    context: '',
  };
  const query: PostListQuery = {
    ...parsePage(q.page, q.perPage),
    search: parseSearch(q.search),
    slugs: parseSlugList('slug', q.slug),
    statuses: parseStatusFilter(q.status),
    orderby: parseOrderby(q.orderby, POST_ORDERBY, 'date'),
    order: parseOrder(q.order, 'desc'),
    include: parseIdList('include', q.include),
    exclude: parseIdList('exclude', q.exclude),
    context: parseContext(q.context),
  };
  if (query.orderby === 'relevance' && !query.search) {
    throw badRequest('rest_no_search_term_defined', 'You need to define a search term to order by relevance.');
  }
  if (query.orderby === 'include' && !query.include.length) {
    throw badRequest(
      'rest_orderby_include_missing_include',
      'You need to define an include parameter to order by include.',
    );
  }
  return query;
}
