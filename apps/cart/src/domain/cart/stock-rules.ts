import { DomainError, unprocessable } from '@storefront/errors';
import type { LookupResult, Purchasable } from '../ports';

export const MAX_QUANTITY = 9999;

/** The purchasable of a lookup, or the catalog's line error (422 shop_cart_invalid_price, ...). */
export function requirePurchasable(result: LookupResult | undefined): Purchasable {
  if (!result) throw unprocessable('shop_cart_invalid_price', 'Invalid price.');
  if ('error' in result) throw new DomainError(result.error.code, result.error.status || 422, result.error.message);
  return result.purchasable;
}

/** A quantity the store cannot sell: managed stock without backorders, or out of stock. */
export function assertStock(p: Pick<Purchasable, 'name' | 'productId' | 'variationId' | 'stock'>, quantity: number): void {
  const s = p.stock;
  if (s.backordersAllowed) return;
  if (s.manageStock && s.stockQuantity !== null && quantity > s.stockQuantity) {
    const available = Math.max(0, s.stockQuantity);
    throw unprocessable(
      'shop_cart_insufficient_stock',
      available
        ? `Only ${available} of "${p.name}" ${available === 1 ? 'is' : 'are'} in stock.`
        : `"${p.name}" is out of stock.`,
      { product_id: p.productId, variation_id: p.variationId, available },
    );
  }
  if (!s.manageStock && s.stockStatus === 'outofstock') {
    throw unprocessable('shop_cart_insufficient_stock', `"${p.name}" is out of stock.`, {
      product_id: p.productId,
      variation_id: p.variationId,
      available: 0,
    });
  }
}
