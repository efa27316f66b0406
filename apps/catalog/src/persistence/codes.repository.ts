import { escapeLike } from '@storefront/persistence';
import type { EntityManager } from '@mikro-orm/postgresql';
import { T } from './sql';

// SKUs and barcodes share one namespace across products and their variations.

export interface CodeOwner {
  productId: number;
  variationId: number;
  sku: string;
  barcode: string;
}

const OWNERS = `
  select id as product_id, 0 as variation_id, sku, barcode from ${T.products}
  union all
  select product_id, id as variation_id, sku, barcode from ${T.variations}`;

/** Products and variations whose SKU (case-insensitive) or barcode is among `codes`. */
export async function ownersOfCodes(em: EntityManager, codes: readonly string[]): Promise<CodeOwner[]> {
  const wanted = [...new Set(codes.filter(Boolean))];
  if (!wanted.length) return [];
  const rows = await em.execute<{ product_id: number; variation_id: number; sku: string; barcode: string }[]>(
    `select * from (${OWNERS}) o where (o.sku <> '' and lower(o.sku) in (?)) or (o.barcode <> '' and o.barcode in (?))
     order by o.product_id, o.variation_id`,
    [wanted.map((c) => c.toLowerCase()), wanted],
  );
  return rows.map((r) => ({
    productId: Number(r.product_id),
    variationId: Number(r.variation_id),
    sku: r.sku,
    barcode: r.barcode,
  }));
}

/** SKUs starting with `prefix` (case-insensitive), to continue a numbered series in one query. */
export async function skusWithPrefix(em: EntityManager, prefix: string): Promise<string[]> {
  const escaped = escapeLike(prefix.toLowerCase());
  const rows = await em.execute<{ sku: string }[]>(`select sku from (${OWNERS}) o where lower(o.sku) like ?`, [
    `${escaped}%`,
  ]);
  return rows.map((r) => r.sku);
}

export async function barcodesInUse(em: EntityManager, barcodes: readonly string[]): Promise<Set<string>> {
  if (!barcodes.length) return new Set();
  const rows = await em.execute<{ barcode: string }[]>(`select barcode from (${OWNERS}) o where o.barcode in (?)`, [
    [...barcodes],
  ]);
  return new Set(rows.map((r) => r.barcode));
}
