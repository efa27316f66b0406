import { escapeLike } from '@storefront/persistence';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostListQuery } from './post-list-query';
import type { ProductDetails } from './product-read-model';
import { Product } from './entities';
import { postOrder, postWhere, STATUS_ONLY, type SqlFragment } from './post-list';
import { readProductListPage, readProductsByIds, viaEntityManager, type ProductListPage, type SqlRunner } from './product-read';
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

/**
 * The keys of one page of products and the total matching count, in one
 * statement. The documents follow only when needed, or come with the keys
 * (`withDocuments`: a read with no ETag to compare).
 */
export async function listProductKeys(
  run: SqlRunner,
  q: ProductListQuery,
  withDocuments = false,
): Promise<ProductListPage> {
  const where = postWhere(q, [
    ...termFilter(q.categories, true),
    ...termFilter(q.categoriesExclude, false),
    ...termFilter(q.tags, true),
    ...termFilter(q.tagsExclude, false),
  ]);
  // Filtered by status alone (the storefront's default list): the total comes from the counters a
  // trigger keeps (product_counts, at most 8 rows per status), not from counting the rows.
  const total = where.sql === STATUS_ONLY
    ? { sql: `select coalesce(sum(n), 0) as total from ${T.productCounts} where status in (?)`, params: [q.statuses] }
    : undefined;
  return readProductListPage(run, where, postOrder(q), q.perPage, (q.page - 1) * q.perPage, withDocuments, total);
}

export function findProduct(em: EntityManager, id: number): Promise<Product | null> {
  return em.findOne(Product, { id });
}

export async function findProducts(em: EntityManager, ids: readonly number[]): Promise<Product[]> {
  if (!ids.length) return [];
  return em.find(Product, { id: { $in: [...ids] } });
}

/** One query, whatever the number of products (no N+1). */
export async function loadProductDetails(em: EntityManager, productIds: readonly number[]): Promise<ProductDetails> {
  return (await readProductsByIds(viaEntityManager(em), productIds)).details;
}

/** Serializes, until the transaction ends, the writers that derive a slug from the same base. */
export async function lockSlugBase(em: EntityManager, base: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext(?))`, [`catalog.products.slug:${base}`]);
}

/** Slugs equal to `base` or `base-<n>` held by other products, to pick a free one in one query. */
export async function slugsLike(em: EntityManager, base: string, exceptId: number): Promise<Set<string>> {
  const rows = await em.execute<{ slug: string }[]>(
    `select slug from ${T.products} where (slug = ? or slug like ?) and id <> ?`,
    [base, `${escapeLike(base)}-%`, exceptId],
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

/** Serializes demo seeding across replicas until the transaction ends. */
export async function lockDemoSeed(em: EntityManager): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtext('catalog.seed_demo_data'))`);
}

export async function countProducts(em: EntityManager): Promise<number> {
  const [{ count }] = await em.execute<{ count: string }[]>(`select count(*) as count from ${T.products}`);
  return Number(count);
}
