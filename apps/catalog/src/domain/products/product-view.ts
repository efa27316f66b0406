import type { Price, Product, Variation } from '../../persistence/entities';
import type { ProductDetails } from '../../persistence/product-read-model';
import type { Level } from '../../persistence/stock.repository';
import { can, type Actor } from '../shared/actor';
import { levelOf, productStockQuantity, productStockStatus, variationStockStatus } from '../stock/stock-status';
import type { StockStatus } from '../stock/stock-math';

// A product as responses show it: the row, its prices, variations (with the
// price they resolve to), terms and stock. Stock quantities are null when
// not managed or hidden from the caller (hide_stock, the contract's
// "inventory visibility").

export interface VariationView {
  variation: Variation;
  priceId: number;
  unitAmount: string;
  currency: string;
  stockQuantity: number | null;
  stockStatus: StockStatus;
}

export interface ProductView {
  product: Product;
  prices: Price[];
  variations: VariationView[];
  categoryIds: number[];
  tagIds: number[];
  stockQuantity: number | null;
  stockStatus: StockStatus;
}

/** Whether this caller may see the product's stock quantities. */
export function canSeeStock(actor: Actor, product: Product): boolean {
  return !product.hideStock || can(actor, 'edit_shop_products');
}

/** The price a variation sells at: its own (0 = the product's first), the override amount when set. */
export function resolveVariationPrice(variation: Variation, prices: readonly Price[]) {
  const price = prices.find((p) => p.id === variation.priceId) ?? (variation.priceId === 0 ? prices[0] : undefined);
  return {
    price,
    priceId: price?.id ?? 0,
    unitAmount: variation.amount ?? price?.amount ?? '',
    currency: price?.currency ?? '',
  };
}

export function variationViews(
  product: Product,
  prices: readonly Price[],
  variations: readonly Variation[],
  levels: readonly Level[],
  showStock: boolean,
): VariationView[] {
  return variations.map((variation) => {
    const { priceId, unitAmount, currency } = resolveVariationPrice(variation, prices);
    return {
      variation,
      priceId,
      unitAmount,
      currency,
      stockQuantity: product.manageStock && showStock ? levelOf(levels, product.id, variation.id) : null,
      stockStatus: variationStockStatus(product, levels, variation.id),
    };
  });
}

export function productView(product: Product, details: ProductDetails, actor: Actor): ProductView {
  const prices = details.prices.filter((p) => p.productId === product.id);
  const variations =
    product.productType === 'variable' ? details.variations.filter((v) => v.productId === product.id) : [];
  const levels = details.levels.filter((l) => l.productId === product.id);
  const terms = details.terms.filter((t) => t.productId === product.id);
  const showStock = canSeeStock(actor, product);
  const variationIds = variations.map((v) => v.id);
  return {
    product,
    prices,
    variations: variationViews(product, prices, variations, levels, showStock),
    categoryIds: terms.filter((t) => t.taxonomy === 'shop_product_category').map((t) => t.termId),
    tagIds: terms.filter((t) => t.taxonomy === 'shop_product_tag').map((t) => t.termId),
    stockQuantity: showStock ? productStockQuantity(product, levels, variationIds) : null,
    stockStatus: productStockStatus(product, levels, variationIds),
  };
}
