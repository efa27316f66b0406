import type { Price, Product, Variation } from '../../persistence/entities';
import type { Level } from '../../persistence/stock.repository';
import { resolveVariationPrice } from '../products/product-view';
import { levelOf, variationStockStatus } from '../stock/stock-status';
import type { StockStatus } from '../stock/stock-math';

// Resolving one cart line against the catalog. Pure: everything it needs is
// loaded for the whole cart beforehand, so a cart costs a fixed number of queries.

export interface PurchasableRefInput {
  priceId: number;
  productId: number;
  variationId: number;
}

export interface PurchasableData {
  product: Product;
  price: Price;
  variation: Variation | null;
  name: string;
  image: string;
  unitAmount: string;
  categoryIds: number[];
  stock: { manageStock: boolean; quantity: number | null; status: StockStatus; backordersAllowed: boolean };
}

export interface LineFailure {
  code: string;
  status: number;
  message: string;
}

export interface CartCatalog {
  pricesById: ReadonlyMap<number, Price>;
  productsById: ReadonlyMap<number, Product>;
  pricesOf(productId: number): Price[];
  variationsOf(productId: number): Variation[];
  categoriesOf(productId: number): number[];
  levels: readonly Level[];
}

const invalidPrice: LineFailure = { code: 'shop_cart_invalid_price', status: 422, message: 'Invalid price.' };
const variationRequired: LineFailure = {
  code: 'shop_cart_variation_required',
  status: 422,
  message: 'Please choose product options (variation_id is required for this product).',
};
const invalidVariation: LineFailure = {
  code: 'shop_cart_invalid_variation',
  status: 422,
  message: 'Invalid variation for this product.',
};

/** "T-Shirt - Red, L": the product title and the variation's attribute values. */
export function purchasableName(product: Product, variation: Variation | null): string {
  const values = variation ? Object.values(variation.attributes) : [];
  return values.length ? `${product.title} - ${values.join(', ')}` : product.title;
}

/** Only published products are for sale; the line's product, if named, must own the price. */
export function resolvePurchasable(ref: PurchasableRefInput, catalog: CartCatalog): PurchasableData | LineFailure {
  const price = catalog.pricesById.get(ref.priceId);
  if (!price || (ref.productId && ref.productId !== price.productId)) return invalidPrice;
  const product = catalog.productsById.get(price.productId);
  if (!product || product.status !== 'publish') return invalidPrice;
  let variation: Variation | null = null;
  if (product.productType === 'variable') {
    if (!ref.variationId) return variationRequired;
    variation = catalog.variationsOf(product.id).find((v) => v.id === ref.variationId) ?? null;
    if (!variation) return invalidVariation;
  } else if (ref.variationId) {
    return invalidVariation;
  }
  const ownPrice = variation ? resolveVariationPrice(variation, catalog.pricesOf(product.id)) : null;
  // The override belongs to the variation's own price; with another price of the product the line pays that price.
  const unitAmount = variation?.amount != null && ownPrice?.priceId === price.id ? variation.amount : price.amount;
  const stockId = variation?.id ?? 0;
  return {
    product,
    price,
    variation,
    name: purchasableName(product, variation),
    image: variation?.image || product.images[0] || '',
    unitAmount,
    categoryIds: catalog.categoriesOf(product.id),
    stock: {
      manageStock: product.manageStock,
      quantity: product.manageStock ? levelOf(catalog.levels, product.id, stockId) : null,
      status: variationStockStatus(product, catalog.levels, stockId),
      backordersAllowed: product.backordersAllowed,
    },
  };
}

export function isLineFailure(result: PurchasableData | LineFailure): result is LineFailure {
  return 'code' in result;
}
