import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@storefront/events';
import { CatalogEvents } from '@storefront/domain-events/catalog';
import { Variation, type Product, type StockMovement } from '../../persistence/entities';
import { findProducts } from '../../persistence/products.repository';
import { insertMovements, writeLevels, type LevelKey } from '../../persistence/stock.repository';
import type { CatalogDeps } from '../deps';
import { crossesLowStock } from './stock-math';

// The one way a stock level changes: new level, a movement saying who/why,
// and a stock_low event when the level crosses the threshold. The caller holds
// the level rows locked. Product rows are only read here: a managed product's
// stock_status is computed from its levels when read (stock-status.ts), so
// stock changes never lock product rows and cannot deadlock with product edits.

export interface LevelChange extends LevelKey {
  before: number;
  after: number;
}

export interface MovementContext {
  userId: number;
  reason: string;
  note: string;
  reservationId: string | null;
}

export async function recordLevelChanges(
  em: EntityManager,
  deps: CatalogDeps,
  changes: readonly LevelChange[],
  context: MovementContext,
): Promise<StockMovement[]> {
  if (!changes.length) return [];
  const now = deps.now();
  await writeLevels(
    em,
    changes.map((c) => ({ productId: c.productId, variationId: c.variationId, quantity: c.after })),
    now,
  );
  const movements = await insertMovements(
    em,
    changes.map((c) => ({
      ...c,
      userId: context.userId,
      quantityBefore: c.before,
      quantityAfter: c.after,
      note: context.note,
      reason: context.reason,
      reservationId: context.reservationId,
    })),
    now,
  );
  const products = await findProducts(em, [...new Set(changes.map((c) => c.productId))]);
  await recordLowStockEvents(em, deps, products, changes);
  return movements;
}

export function lowStockThreshold(product: Pick<Product, 'lowStockThreshold'>, storeDefault: number): number {
  return product.lowStockThreshold ?? storeDefault;
}

/** What a stock_low event needs of a product. */
export type LowStockProduct = Pick<Product, 'id' | 'title' | 'sku' | 'manageStock' | 'lowStockThreshold'>;

/** A stock_low event (in the caller's transaction) for each change that crosses its product's threshold. */
export async function recordLowStockEvents(
  em: EntityManager,
  deps: CatalogDeps,
  products: readonly LowStockProduct[],
  changes: readonly LevelChange[],
): Promise<void> {
  const byId = new Map(products.map((p) => [p.id, p]));
  const crossings = changes.filter((c) => {
    const product = byId.get(c.productId);
    return (
      product?.manageStock &&
      crossesLowStock(c.before, c.after, lowStockThreshold(product, deps.config.LOW_STOCK_THRESHOLD))
    );
  });
  if (!crossings.length) return;
  const variationIds = crossings.map((c) => c.variationId).filter((id) => id !== 0);
  const variations = variationIds.length ? await em.find(Variation, { id: { $in: variationIds } }) : [];
  const skuOf = new Map(variations.map((v) => [v.id, v.sku]));
  for (const c of crossings) {
    const product = byId.get(c.productId)!;
    recordEvent(em, CatalogEvents.stockLow, {
      productId: c.productId,
      variationId: c.variationId,
      sku: (c.variationId ? skuOf.get(c.variationId) : product.sku) || product.sku,
      name: product.title,
      stockQuantity: c.after,
      threshold: lowStockThreshold(product, deps.config.LOW_STOCK_THRESHOLD),
    });
  }
}
