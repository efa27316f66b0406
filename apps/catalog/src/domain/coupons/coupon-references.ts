import type { EntityManager } from '@mikro-orm/postgresql';
import { unprocessable } from '@storefront/errors';
import { existingPriceIds, existingProductIds } from '../../persistence/products.repository';
import type { CustomerDirectory } from '../deps';
import type { CouponScalars } from './coupon-input';

// Spec 4.7: referenced product, price and customer ids must exist, or the
// coupon is refused (422 shop_coupon_invalid_reference) and nothing persists.

export interface MissingReferences {
  product_ids: number[];
  price_ids: number[];
  customer_ids: number[];
}

const missingFrom = (wanted: readonly number[], found: readonly number[]) => {
  const present = new Set(found);
  return [...new Set(wanted)].filter((id) => !present.has(id));
};

/** Catalog references, checked with local queries (also inside the write's transaction). */
export async function missingCatalogReferences(
  em: EntityManager,
  scalars: CouponScalars,
): Promise<Omit<MissingReferences, 'customer_ids'>> {
  const productIds = [...(scalars.allowedProductIds ?? []), ...(scalars.excludedProductIds ?? [])];
  const priceIds = scalars.allowedPriceIds ?? [];
  return {
    product_ids: missingFrom(productIds, await existingProductIds(em, [...new Set(productIds)])),
    price_ids: missingFrom(priceIds, await existingPriceIds(em, priceIds)),
  };
}

/** Customer references, asked of the customers service: call it with no transaction open. */
export async function missingCustomers(customers: CustomerDirectory, scalars: CouponScalars): Promise<number[]> {
  const ids = scalars.allowedCustomerIds ?? [];
  return ids.length ? missingFrom(ids, await customers.existingCustomerIds(ids)) : [];
}

export function assertReferencesExist(missing: MissingReferences): void {
  const parts = [
    missing.product_ids.length && `product ids ${missing.product_ids.join(', ')}`,
    missing.price_ids.length && `price ids ${missing.price_ids.join(', ')}`,
    missing.customer_ids.length && `customer ids ${missing.customer_ids.join(', ')}`,
  ].filter(Boolean);
  if (parts.length) {
    throw unprocessable('shop_coupon_invalid_reference', `The coupon refers to missing ${parts.join('; ')}.`, {
      ...missing,
    });
  }
}
