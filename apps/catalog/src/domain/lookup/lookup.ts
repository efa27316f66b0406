import { invalidParams, notFound, unprocessable } from '@storefront/errors';
import type { Price, Product } from '../../persistence/entities';
import { loadProductDetails } from '../../persistence/products.repository';
import type { ProductDetails } from '../../persistence/product-read-model';
import { readProductsOfPrices } from '../../persistence/purchasable-read';
import type { Actor } from '../shared/actor';
import type { CatalogDeps } from '../deps';
import { isId } from '../shared/ids';
import { canRead } from '../posts/post-permissions';
import { PRODUCT_RULES } from '../posts/post-types';
import { canSeeStock, variationViews, type VariationView } from '../products/product-view';
import {
  resolvePurchasable,
  type CartCatalog,
  type LineFailure,
  type PurchasableData,
  type PurchasableRefInput,
} from './purchasable';
import { requireProduct } from '../stock/stock-targets';

const MAX_LINES = 100;

function cartCatalog(linePrices: Price[], products: Product[], details: ProductDetails): CartCatalog {
  const group =
    <T extends { productId: number }>(items: readonly T[]) =>
    (productId: number) =>
      items.filter((i) => i.productId === productId);
  return {
    pricesById: new Map(linePrices.map((p) => [p.id, p])),
    productsById: new Map(products.map((p) => [p.id, p])),
    pricesOf: group(details.prices),
    variationsOf: group(details.variations),
    categoriesOf: (productId) =>
      details.terms
        .filter((t) => t.productId === productId && t.taxonomy === 'shop_product_category')
        .map((t) => t.termId),
    levels: details.levels,
  };
}

/** What the cart asks of the catalog: one call per cart, one query per call. */
export class CatalogLookup {
  constructor(private readonly deps: CatalogDeps) {}

  async purchasables(refs: readonly PurchasableRefInput[]): Promise<Array<PurchasableData | LineFailure>> {
    if (refs.length > MAX_LINES) throw invalidParams({ lines: `At most ${MAX_LINES} lines per call.` });
    const priceIds = new Set(refs.map((r) => r.priceId).filter(isId));
    const { products, details } = priceIds.size
      ? await readProductsOfPrices(this.deps.db.reader, [...priceIds])
      : { products: [], details: { prices: [], variations: [], terms: [], levels: [] } };
    // The documents carry every price of their products; the lines name some of them.
    const catalog = cartCatalog(details.prices.filter((p) => priceIds.has(p.id)), products, details);
    return refs.map((ref) => resolvePurchasable(ref, catalog));
  }

  /** Variations of a product the caller can see; 422 shop_product_not_variable for other products. */
  async variations(actor: Actor, productId: number): Promise<VariationView[]> {
    const em = this.deps.db.em();
    const product = await requireProduct(em, productId);
    // A product hidden from this caller does not exist for them.
    if (!canRead(PRODUCT_RULES, actor, product.status)) throw notFound('rest_post_invalid_id', 'Invalid product ID.');
    if (product.productType !== 'variable') {
      throw unprocessable('shop_product_not_variable', 'This product has no variations.');
    }
    const details = await loadProductDetails(em, [product.id]);
    return variationViews(product, details.prices, details.variations, details.levels, canSeeStock(actor, product));
  }
}
