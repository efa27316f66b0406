import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import type { Price, Product, Variation } from './entities';
import type { ProductDetails, ProductKey } from './product-read-model';
import type { SqlFragment } from './post-list';
import { T } from './sql';

// The read path of products (lists, single reads, lookups) in ONE statement:
// each product row comes with its prices, variations, terms and stock levels
// aggregated as JSON. Rows map to plain objects: reads need no unit of work,
// and hydrating every row through the ORM cost more CPU than the queries.

const P = T.products;

/**
 * One JSON document per product: the row and, aggregated, what belongs to it.
 * A single column per row: the driver parses one JSON text instead of typing
 * two dozen columns (that parsing was the read path's largest CPU cost).
 */
const PRODUCT_DOCUMENT = `json_build_object(
  'p', to_json(${P}.*),
  'prices', (select coalesce(json_agg(json_build_object(
      'id', pr.id, 'productId', pr.product_id, 'position', pr.position, 'name', pr.name,
      'amount', pr.amount::text, 'compareAtAmount', pr.compare_at_amount::text, 'currency', pr.currency,
      'type', pr.type, 'billingPeriod', pr.billing_period, 'billingInterval', pr.billing_interval,
      'trialDays', pr.trial_days) order by pr.position, pr.id), '[]')
    from ${T.prices} pr where pr.product_id = ${P}.id),
  'variations', (select coalesce(json_agg(json_build_object(
      'id', v.id, 'productId', v.product_id, 'position', v.position, 'attributes', v.attributes,
      'sku', v.sku, 'barcode', v.barcode, 'priceId', v.price_id, 'amount', v.amount::text, 'image', v.image)
      order by v.position, v.id), '[]')
    from ${T.variations} v where v.product_id = ${P}.id),
  'terms', (select coalesce(json_agg(json_build_object('termId', pt.term_id, 'taxonomy', t.taxonomy) order by pt.term_id), '[]')
    from ${T.productTerms} pt join ${T.terms} t on t.id = pt.term_id where pt.product_id = ${P}.id),
  'levels', (select coalesce(json_agg(json_build_object('variationId', l.variation_id, 'quantity', l.quantity)), '[]')
    from ${T.stockLevels} l where l.product_id = ${P}.id)
) as doc`;

interface ProductDocument {
  p: Record<string, unknown>;
  prices: Price[];
  variations: Variation[];
  terms: Array<{ termId: number; taxonomy: string }>;
  levels: Array<{ variationId: number; quantity: number }>;
}

/** Runs SQL with `?` placeholders: the hot-read pool outside transactions, the EntityManager inside them. */
export type SqlRunner = <T>(sql: string, params: unknown[]) => Promise<T[]>;

export const viaReader = (reader: Reader): SqlRunner => (sql, params) => reader.query(sql, params);
export const viaEntityManager = (em: EntityManager): SqlRunner => (sql, params) => em.execute(sql, params);

export interface ProductPage {
  products: Product[];
  details: ProductDetails;
  total: number;
}

/** `select <products with details> <tail>`, e.g. `where ... order by ... limit ?`. */
export async function readProducts(run: SqlRunner, tail: string, params: unknown[]): Promise<ProductPage> {
  const rows = await run<{ doc: ProductDocument }>(`select ${PRODUCT_DOCUMENT} from ${P} ${tail}`, params);
  const docs = rows.map((r) => r.doc);
  return { products: docs.map((d) => productFromRow(d.p)), details: detailsFromDocuments(docs), total: docs.length };
}

export function readProductsByIds(run: SqlRunner, ids: readonly number[]): Promise<ProductPage> {
  if (!ids.length) return Promise.resolve({ products: [], details: emptyDetails(), total: 0 });
  return readProducts(run, `where ${P}.id in (?)`, [[...ids]]);
}


// Row version, the sum of its stock levels' versions (they only grow), and its
// term ids: term deletions unlink products without touching their rows.
const KEY_COLUMNS = `${P}.id, ${P}.status, concat_ws('/', ${P}.version,
  (select coalesce(sum(l.version), 0) from ${T.stockLevels} l where l.product_id = ${P}.id),
  (select string_agg(pt.term_id::text, ',' order by pt.term_id) from ${T.productTerms} pt where pt.product_id = ${P}.id)
) as fingerprint`;

type KeyedRow = { id: number; status: string; fingerprint: string; doc?: ProductDocument };

const keyOf = (r: KeyedRow): ProductKey => ({ id: Number(r.id), status: r.status, fingerprint: r.fingerprint });

/** `select <keys> <tail>`: the light first step of a conditional read. */
export async function readProductKeys(run: SqlRunner, tail: string, params: unknown[]): Promise<ProductKey[]> {
  return (await run<KeyedRow>(`select ${KEY_COLUMNS} from ${P} ${tail}`, params)).map(keyOf);
}

/** The key of one product (none when it does not exist). */
export function readProductKey(run: SqlRunner, id: number): Promise<ProductKey[]> {
  return readProductKeys(run, `where ${P}.id = ?`, [id]);
}

export interface KeyedProductPage extends ProductPage {
  keys: ProductKey[];
}

function keyedPage(rows: KeyedRow[]): KeyedProductPage {
  const docs = rows.map((r) => r.doc!);
  return {
    keys: rows.map(keyOf),
    products: docs.map((d) => productFromRow(d.p)),
    details: detailsFromDocuments(docs),
    total: docs.length,
  };
}

/**
 * `select <keys and documents> <tail>`: a read with no ETag to compare needs
 * the documents anyway, so keys and documents come in one statement (one
 * round trip instead of two), in the tail's order.
 */
export async function readKeyedProducts(run: SqlRunner, tail: string, params: unknown[]): Promise<KeyedProductPage> {
  return keyedPage(await run<KeyedRow>(`select ${KEY_COLUMNS}, ${PRODUCT_DOCUMENT} from ${P} ${tail}`, params));
}

/** The key and document of one product (none when it does not exist). */
export function readKeyedProduct(run: SqlRunner, id: number): Promise<KeyedProductPage> {
  return readKeyedProducts(run, `where ${P}.id = ?`, [id]);
}

export interface ProductListPage {
  keys: ProductKey[];
  /** Matching products over all pages. */
  total: number;
  /** The page's documents too, when asked for. */
  page?: KeyedProductPage;
}

/**
 * One page of a filtered, ordered list in ONE statement: the matching total
 * and the page's keys (and documents when `withDocuments`). The page's ids
 * are picked first (index order, OFFSET over bare ids), so fingerprints and
 * documents are computed for the page's rows only, never for the rows OFFSET
 * skips; `with ordinality` keeps the order. An empty page still returns the
 * total (one row of nulls from the left join).
 */
export async function readProductListPage(
  run: SqlRunner,
  where: SqlFragment,
  order: SqlFragment,
  limit: number,
  offset: number,
  withDocuments: boolean,
  /** A statement yielding the matching total as `total`; counting the matching rows when absent. */
  count: SqlFragment = { sql: `select count(*) as total from ${P} ${where.sql}`, params: where.params },
): Promise<ProductListPage> {
  const columns = withDocuments ? `${KEY_COLUMNS}, ${PRODUCT_DOCUMENT}` : KEY_COLUMNS;
  const sql = `select t.total, k.* from (${count.sql}) t
left join lateral (
  select ${columns}, page.ord
  from unnest(array(select id from ${P} ${where.sql} ${order.sql} limit ? offset ?)) with ordinality as page(id, ord)
  join ${P} on ${P}.id = page.id
) k on true
order by k.ord`;
  const rows = await run<KeyedRow & { total: string; ord: number | null }>(sql, [
    ...count.params,
    ...where.params,
    ...order.params,
    limit,
    offset,
  ]);
  const total = Number(rows[0]?.total ?? 0);
  const found = rows.filter((r) => r.id !== null);
  return withDocuments ? { keys: found.map(keyOf), total, page: keyedPage(found) } : { keys: found.map(keyOf), total };
}

/** The documents of `ids`, in that order. */
export async function readProductsInOrder(run: SqlRunner, ids: readonly number[]): Promise<ProductPage> {
  const page = await readProductsByIds(run, ids);
  const position = new Map(ids.map((id, i) => [id, i]));
  page.products.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  return page;
}

export const emptyDetails = (): ProductDetails => ({ prices: [], variations: [], terms: [], levels: [] });

const camelKeys = new Map<string, string>();
const camelKey = (column: string): string => {
  let key = camelKeys.get(column);
  if (key === undefined) {
    key = column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelKeys.set(column, key);
  }
  return key;
};

/**
 * The row as the entity's plain shape: every column under its property name
 * (snake_case -> camelCase), so a new column needs no change here. JSON
 * already carries numbers, booleans and documents; only timestamps need Dates.
 */
function productFromRow(row: Record<string, unknown>): Product {
  const product: Record<string, unknown> = {};
  for (const column in row) product[camelKey(column)] = row[column];
  product.createdAt = new Date(row.created_at as string);
  product.modifiedAt = new Date(row.modified_at as string);
  return product as unknown as Product;
}

function detailsFromDocuments(docs: ProductDocument[]): ProductDetails {
  const details = emptyDetails();
  for (const doc of docs) {
    const productId = Number(doc.p.id);
    details.prices.push(...doc.prices);
    details.variations.push(...doc.variations);
    details.terms.push(...doc.terms.map((t) => ({ productId, termId: t.termId, taxonomy: t.taxonomy })));
    details.levels.push(...doc.levels.map((l) => ({ productId, variationId: l.variationId, quantity: l.quantity })));
  }
  return details;
}
