// The shape of a posts-shaped collection query (products, coupons) as the
// repositories run it. It lives here so persistence owns what it executes;
// the domain parses requests into it (domain/posts/collection-query.ts).

export const POST_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const POST_ORDERBY = ['date', 'id', 'include', 'title', 'slug', 'modified', 'relevance'] as const;
export type PostOrderby = (typeof POST_ORDERBY)[number];

export type Context = 'view' | 'embed' | 'edit';

export interface PageRequest {
  page: number;
  perPage: number;
}

export interface PostListQuery extends PageRequest {
  search: string;
  slugs: string[];
  statuses: PostStatus[];
  orderby: PostOrderby;
  order: 'asc' | 'desc';
  include: number[];
  exclude: number[];
  context: Context;
}
