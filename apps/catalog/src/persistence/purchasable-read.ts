import type { Reader } from '@storefront/persistence';
import { readProducts, viaReader, type ProductPage } from './product-read';
import { T } from './sql';

// The cart's batched lookup (GetPurchasables): the products owning the given
// prices, each with its prices, variations, terms and levels, in ONE prepared
// statement on the read pool (no unit of work: the lookup only reads).

/** The documents of the products that own any of `priceIds` (their prices included). */
export function readProductsOfPrices(reader: Reader, priceIds: readonly number[]): Promise<ProductPage> {
  return readProducts(
    viaReader(reader),
    `where ${T.products}.id in (select product_id from ${T.prices} where id in (?))`,
    [[...priceIds]],
  );
}
