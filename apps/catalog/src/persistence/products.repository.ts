import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostListQuery } from '../domain/collection-query';
import { Price, Product, Variation } from './entities';
import { postOrder, postWhere, type SqlFragment } from './post-list';
import { levelsOfProducts, type Level } from './stock.repository';
import { T } from './sql';

export interface ProductListQuery extends PostListQuery {
  categories: number[];
  categoriesExclude: number[];
  tags: number[];
  tagsExclude: number[];
}

function termFilter(ids: number[], present: boolean): SqlFragment[] {
  if (!ids.length) return [];
  const sql = `${present ? '' : 'not '}exists (select 1 from ${T.productTerms} pt where pt.product_id = ${T.products}.id and pt.term_id in (?))`;
  return [{ sql, params: [ids] }];
}

/** One page of products and the total matching count, in two queries. */
export async function listProducts(
  em: EntityManager,
  q: ProductListQuery,
): Promise<{ products: Product[]; total: number }> {
  const where = postWhere(q, [
    ...termFilter(q.categories, true),
    ...termFilter(q.categoriesExclude, false),
    ...termFilter(q.tags, true),
    ...termFilter(q.tagsExclude, false),
  ]);
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from ${T.products} ${where.sql}`,
    where.params,
  );
  const order = postOrder(q);
  const rows = await em.execute(`select * from ${T.products} ${where.sql} ${order.sql} limit ? offset ?`, [
    ...where.params,
    ...order.params,
    q.perPage,
    (q.page - 1) * q.perPage,
  ]);
  return { products: rows.map((row) => em.map(Product, row)), total: Number(count) };
}

export function findProduct(em: EntityManager, id: number): Promise<Product | null> {
  return em.findOne(Product, { id });
}

export async function findProducts(em: EntityManager, ids: readonly number[]): Promise<Product[]> {
  if (!ids.length) return [];
  return em.find(Product, { id: { $in: [...ids] } });
}

/** Everything a product response shows beside the product row, for a whole page at once. */
export interface ProductDetails {
  prices: Price[];
  variations: Variation[];
  terms: Array<{ productId: number; termId: number; taxonomy: string }>;
  levels: Level[];
}

/** Four queries, whatever the number of products (no N+1). */
export async function loadProductDetails(em: EntityManager, productIds: readonly number[]): Promise<ProductDetails> {
  if (!productIds.length) return { prices: [], variations: [], terms: [], levels: [] };
  const ids = [...productIds];
  // Sequential on purpose: inside a transaction they share one connection anyway.
  const prices = await em.find(
    Price,
    { productId: { $in: ids } },
    { orderBy: { productId: 'asc', position: 'asc', id: 'asc' } },
  );
  const variations = await em.find(
    Variation,
    { productId: { $in: ids } },
    { orderBy: { productId: 'asc', position: 'asc', id: 'asc' } },
  );
  const terms = await em.execute<{ product_id: number; term_id: number; taxonomy: string }[]>(
    `select pt.product_id, pt.term_id, t.taxonomy from ${T.productTerms} pt
     join ${T.terms} t on t.id = pt.term_id where pt.product_id in (?) order by pt.term_id`,
    [ids],
  );
  const levels = await levelsOfProducts(em, ids);
  return {
    prices,
    variations,
    terms: terms.map((r) => ({ productId: Number(r.product_id), termId: Number(r.term_id), taxonomy: r.taxonomy })),
    levels,
  };
}

/** Serializes, until the transaction ends, the writers that derive a slug from the same base. */
export async function lockSlugBase(em: EntityManager, base: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`catalog.products.slug:${base}`]);
}

/** Slugs equal to `base` or `base-<n>` held by other products, to pick a free one in one query. */
export async function slugsLike(em: EntityManager, base: string, exceptId: number): Promise<Set<string>> {
  const rows = await em.execute<{ slug: string }[]>(
    `select slug from ${T.products} where (slug = ? or slug like ?) and id <> ?`,
    [base, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`, exceptId],
  );
  return new Set(rows.map((r) => r.slug));
}

export async function existingProductIds(em: EntityManager, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ id: number }[]>(`select id from ${T.products} where id in (?)`, [[...ids]]);
  return rows.map((r) => Number(r.id));
}

export async function priceIdsOf(em: EntityManager, productId: number): Promise<number[]> {
  const rows = await em.execute<{ id: number }[]>(`select id from ${T.prices} where product_id = ?`, [productId]);
  return rows.map((r) => Number(r.id));
}

export async function existingPriceIds(em: EntityManager, ids: readonly number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await em.execute<{ id: number }[]>(`select id from ${T.prices} where id in (?)`, [[...ids]]);
  return rows.map((r) => Number(r.id));
}

/** Removes a product and everything that belongs to it, except its stock movements (history). */
export async function deleteProductRows(em: EntityManager, id: number): Promise<void> {
  await em.execute(`delete from ${T.prices} where product_id = ?`, [id]);
  await em.execute(`delete from ${T.variations} where product_id = ?`, [id]);
  await em.execute(`delete from ${T.productTerms} where product_id = ?`, [id]);
  await em.execute(`delete from ${T.stockLevels} where product_id = ?`, [id]);
  await em.execute(`delete from ${T.products} where id = ?`, [id]);
}

export async function countProducts(em: EntityManager): Promise<number> {
  const [{ count }] = await em.execute<{ count: string }[]>(`select count(*) as count from ${T.products}`);
  return Number(count);
}
