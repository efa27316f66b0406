import type { EntityManager } from '@mikro-orm/postgresql';
import { invalidParams, notFound, unprocessable } from '@storefront/errors';
import { Variation, type Product } from '../../persistence/entities';
import { findProduct } from '../../persistence/products.repository';
import type { LevelKey } from '../../persistence/stock.repository';
import { isId } from '../shared/ids';

// Which level a (product, variation) pair names: variable products keep stock
// per variation; every other product on variation 0.

export const invalidProductId = () => notFound('rest_post_invalid_id', 'Invalid product ID.');
export const invalidVariationId = () => notFound('shop_variation_invalid_id', 'Invalid variation ID for this product.');

export async function requireProduct(em: EntityManager, id: number): Promise<Product> {
  const product = isId(id) ? await findProduct(em, id) : null;
  if (!product) throw invalidProductId();
  return product;
}

/** Checks that the variation belongs to the product (404 otherwise) and returns the level key. */
export async function requireLevelKey(em: EntityManager, product: Product, variationId: number): Promise<LevelKey> {
  if (product.productType === 'variable' && variationId === 0) {
    throw invalidParams({ variation_id: 'variation_id is required for a variable product.' });
  }
  if (variationId !== 0) {
    const variation =
      product.productType === 'variable' && isId(variationId)
        ? await em.findOne(Variation, { id: variationId, productId: product.id })
        : null;
    if (!variation) throw invalidVariationId();
  }
  return { productId: product.id, variationId };
}

export function requireManagedStock(product: Product): void {
  if (!product.manageStock) {
    throw unprocessable('shop_stock_not_managed', 'This product does not manage stock; enable manage_stock first.');
  }
}
