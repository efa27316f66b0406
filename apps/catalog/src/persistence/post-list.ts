import type { PostListQuery } from './post-list-query';
import { containsPattern, orderByIdList } from './sql';

// The WHERE and ORDER BY of the posts-shaped collections (products, coupons):
// both tables share the post columns. Every value goes through a placeholder.

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

/** The clause of a list filtered by status alone (every other filter adds to it). */
export const STATUS_ONLY = 'where status in (?)';

export function postWhere(q: PostListQuery, extra: SqlFragment[] = []): SqlFragment {
  const parts: string[] = ['status in (?)'];
  const params: unknown[] = [q.statuses];
  if (q.search) {
    const like = containsPattern(q.search);
    parts.push('(title ilike ? or content ilike ? or excerpt ilike ?)');
    params.push(like, like, like);
  }
  if (q.slugs.length) {
    parts.push('slug in (?)');
    params.push(q.slugs);
  }
  if (q.include.length) {
    parts.push('id in (?)');
    params.push(q.include);
  }
  if (q.exclude.length) {
    parts.push('id not in (?)');
    params.push(q.exclude);
  }
  for (const fragment of extra) {
    parts.push(fragment.sql);
    params.push(...fragment.params);
  }
  return { sql: `where ${parts.join(' and ')}`, params };
}

const ORDER_COLUMNS = {
  date: 'created_at',
  id: 'id',
  title: 'lower(title)',
  slug: 'slug',
  modified: 'modified_at',
} as const;

/** ORDER BY for a posts collection, with the id as tie-breaker so pages never overlap. */
export function postOrder(q: PostListQuery): SqlFragment {
  if (q.orderby === 'include') return { sql: `order by ${orderByIdList(q.include, 'id')}`, params: [] };
  if (q.orderby === 'relevance') {
    // Title matches first, then the newest (the posts controller's relevance order).
    return { sql: `order by (title ilike ?) desc, created_at desc, id desc`, params: [containsPattern(q.search)] };
  }
  return { sql: `order by ${ORDER_COLUMNS[q.orderby]} ${q.order}, id ${q.order}`, params: [] };
}
