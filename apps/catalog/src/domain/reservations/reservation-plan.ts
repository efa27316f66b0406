import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, unprocessable } from '@storefront/errors';
import { Variation, type Product } from '../../persistence/entities';
import { findProducts } from '../../persistence/products.repository';
import { levelKey } from '../../persistence/stock.repository';
import type { StockLineInput } from './reservation-lines';
import { canTake } from '../stock/stock-math';
import { invalidVariationId } from '../stock/stock-targets';

// Turning requested lines into what a reservation takes: each line with its
// product, checked against the catalog, then against the locked levels.

/** What planning and shortages read of a line's product. */
export type PlanProduct = Pick<Product, 'id' | 'title' | 'productType' | 'manageStock' | 'backordersAllowed' | 'stockStatus'>;

export interface PlannedLine<P extends PlanProduct = Product> extends StockLineInput {
  product: P;
}

/** Resolves the lines' products (two queries); unknown products or variations are 404s. */
export async function planLines(em: EntityManager, lines: readonly StockLineInput[]): Promise<PlannedLine[]> {
  const products = await findProducts(em, [...new Set(lines.map((l) => l.productId))]);
  const variationIds = lines.map((l) => l.variationId).filter((id) => id !== 0);
  const variations = variationIds.length ? await em.find(Variation, { id: { $in: variationIds } }) : [];
  return checkLines(lines, products, variations);
}

/** Pairs each line with its product; unknown products or variations (or a variation of another product) are 404s. */
export function checkLines<P extends PlanProduct>(
  lines: readonly StockLineInput[],
  productList: readonly P[],
  variations: ReadonlyArray<{ id: number; productId: number }>,
): PlannedLine<P>[] {
  const products = new Map(productList.map((p) => [p.id, p]));
  const variationOwner = new Map(variations.map((v) => [v.id, v.productId]));
  return lines.map((line) => {
    const product = products.get(line.productId);
    if (!product) {
      throw notFound('rest_post_invalid_id', `Invalid product ID ${line.productId}.`, { product_id: line.productId });
    }
    const isVariable = product.productType === 'variable';
    const variationOk = isVariable ? variationOwner.get(line.variationId) === product.id : line.variationId === 0;
    if (!variationOk) throw invalidVariationId();
    return { ...line, product };
  });
}

export interface Shortage {
  product_id: number;
  variation_id: number;
  name: string;
  requested: number;
  available: number;
}

/** Units a line can draw on: its locked level; unlimited for unmanaged products unless marked out of stock. */
function availableFor(line: PlannedLine<PlanProduct>, locked: ReadonlyMap<string, number>): number {
  if (line.product.manageStock) return locked.get(levelKey(line.productId, line.variationId)) ?? 0;
  return line.product.stockStatus === 'outofstock' ? 0 : line.quantity;
}

/** Lines the stock cannot cover. */
export function shortages(lines: readonly PlannedLine<PlanProduct>[], locked: ReadonlyMap<string, number>): Shortage[] {
  return lines.flatMap((line) => {
    const { product } = line;
    const available = availableFor(line, locked);
    if (canTake(available, line.quantity, product.manageStock && product.backordersAllowed)) return [];
    const shortage = { product_id: line.productId, variation_id: line.variationId, name: product.title };
    return [{ ...shortage, requested: line.quantity, available: Math.max(0, available) }];
  });
}

export function insufficientStock(missing: readonly Shortage[]) {
  const names = missing.map(
    (s) => `${s.name || `#${s.product_id}`} (${s.available} available, ${s.requested} requested)`,
  );
  return unprocessable('shop_stock_insufficient', `Not enough stock for: ${names.join('; ')}.`, { lines: missing });
}
