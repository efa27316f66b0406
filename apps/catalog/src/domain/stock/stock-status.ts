import type { Product } from '../../persistence/entities';
import type { Level } from '../../persistence/stock.repository';
import { combinedStockStatus, stockStatusOf, type StockStatus } from './stock-math';

// What stock a product shows. For products that manage stock, quantity and
// status are derived from the levels whenever read, never stored twice.

/** The level of a product (variation 0) or variation; 0 when it has no row yet. */
export function levelOf(levels: readonly Level[], productId: number, variationId: number): number {
  return levels.find((l) => l.productId === productId && l.variationId === variationId)?.quantity ?? 0;
}

export function variationStockStatus(product: Product, levels: readonly Level[], variationId: number): StockStatus {
  if (!product.manageStock) return product.stockStatus as StockStatus;
  return stockStatusOf(levelOf(levels, product.id, variationId), product.backordersAllowed);
}

/** A variable product is in stock when any variation is; others follow their own level. */
export function productStockStatus(
  product: Product,
  levels: readonly Level[],
  variationIds: readonly number[],
): StockStatus {
  if (!product.manageStock) return product.stockStatus as StockStatus;
  if (product.productType !== 'variable') return variationStockStatus(product, levels, 0);
  return combinedStockStatus(variationIds.map((id) => variationStockStatus(product, levels, id)));
}

/** Units on hand: the product's level, or the sum over its variations; null when stock is not managed. */
export function productStockQuantity(
  product: Product,
  levels: readonly Level[],
  variationIds: readonly number[],
): number | null {
  if (!product.manageStock) return null;
  if (product.productType !== 'variable') return levelOf(levels, product.id, 0);
  return variationIds.reduce((sum, id) => sum + levelOf(levels, product.id, id), 0);
}
