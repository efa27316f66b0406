import { describe, expect, it } from '@jest/globals';
import { resolvePurchasable, type CartCatalog } from '../../src/domain/lookup/purchasable';
import type { Price, Product, Variation } from '../../src/persistence/entities';

const product = (over: Partial<Product>) =>
  ({
    id: 1,
    title: 'Shirt',
    status: 'publish',
    productType: 'simple',
    images: [],
    manageStock: false,
    stockStatus: 'instock',
    backordersAllowed: false,
    ...over,
  }) as Product;
const price = (over: Partial<Price>) => ({ id: 10, productId: 1, amount: '20.00', currency: 'USD', ...over }) as Price;
const variation = (over: Partial<Variation>) =>
  ({
    id: 100,
    productId: 1,
    attributes: { color: 'Red' },
    priceId: 0,
    amount: null,
    image: '',
    sku: '',
    ...over,
  }) as Variation;

function catalogOf(products: Product[], prices: Price[], variations: Variation[] = []): CartCatalog {
  return {
    pricesById: new Map(prices.map((p) => [p.id, p])),
    productsById: new Map(products.map((p) => [p.id, p])),
    pricesOf: (id) => prices.filter((p) => p.productId === id),
    variationsOf: (id) => variations.filter((v) => v.productId === id),
    categoriesOf: () => [],
    levels: [],
  };
}

describe('resolving a cart line', () => {
  const variable = product({ productType: 'variable' });
  const prices = [price({}), price({ id: 11, amount: '30.00' })];
  const withOverride = variation({ amount: '25.00' });

  it('applies a variation override to its own price only', () => {
    const cart = catalogOf([variable], prices, [withOverride]);
    expect(resolvePurchasable({ priceId: 10, productId: 0, variationId: 100 }, cart)).toMatchObject({
      unitAmount: '25.00',
      name: 'Shirt - Red',
    });
    expect(resolvePurchasable({ priceId: 11, productId: 0, variationId: 100 }, cart)).toMatchObject({
      unitAmount: '30.00',
    });
  });

  it('names the failing rule of a line', () => {
    const cart = catalogOf(
      [variable, product({ id: 2, status: 'draft' })],
      [...prices, price({ id: 12, productId: 2 })],
      [withOverride],
    );
    expect(resolvePurchasable({ priceId: 10, productId: 0, variationId: 0 }, cart)).toMatchObject({
      code: 'shop_cart_variation_required',
    });
    expect(resolvePurchasable({ priceId: 10, productId: 0, variationId: 5 }, cart)).toMatchObject({
      code: 'shop_cart_invalid_variation',
    });
    expect(resolvePurchasable({ priceId: 10, productId: 2, variationId: 100 }, cart)).toMatchObject({
      code: 'shop_cart_invalid_price',
    });
    expect(resolvePurchasable({ priceId: 12, productId: 0, variationId: 0 }, cart)).toMatchObject({
      code: 'shop_cart_invalid_price',
    });
    expect(resolvePurchasable({ priceId: 99, productId: 0, variationId: 0 }, cart)).toMatchObject({
      code: 'shop_cart_invalid_price',
      status: 422,
    });
  });
});
