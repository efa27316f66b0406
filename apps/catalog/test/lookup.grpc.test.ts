import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import {
  createSimpleProduct,
  customer,
  failure,
  guest,
  manager,
  onetimePrice,
  startCatalog,
  variationInput,
  type CatalogClients,
} from './support';

let c: CatalogClients;
let shirt: catalog.Product;

beforeAll(async () => {
  c = await startCatalog();
  shirt = (
    await c.products.createProduct(
      {
        fields: catalog.ProductFields.fromPartial({
          title: 'T-Shirt',
          status: 'publish',
          productType: 'variable',
          manageStock: true,
          hideStock: true,
          images: { values: ['https://img.example.test/shirt.png'] },
          prices: {
            items: [
              onetimePrice('20.00'),
              onetimePrice('15.00', {
                name: 'Monthly',
                type: 'subscription',
                billingPeriod: 'month',
                billingInterval: 1,
                trialDays: 7,
              }),
            ],
          },
          variations: {
            items: [
              variationInput({ color: 'Red', size: 'L' }, { sku: 'TS-RL', stockQuantity: 4 }),
              variationInput(
                { color: 'Blue', size: 'M' },
                { sku: 'TS-BM', amount: '22.00', stockQuantity: 0, image: 'https://img.example.test/blue.png' },
              ),
            ],
          },
        }),
      },
      manager,
    )
  ).product!;
});

afterAll(async () => {
  await c.stop();
});

describe('GetPurchasables', () => {
  it('resolves a whole cart in one call, each line with its own result', async () => {
    const ebook = await createSimpleProduct(c, {
      title: 'E-book',
      amount: '9.99',
      downloadable: true,
      shippingRequired: false,
    });
    const draft = await createSimpleProduct(c, { title: 'Not for sale', status: 'draft' });
    const [red, blue] = shirt.variations;
    const [onetime, monthly] = shirt.prices;
    const refs = [
      { priceId: onetime.id, productId: 0, variationId: red.id },
      { priceId: onetime.id, productId: shirt.id, variationId: blue.id },
      { priceId: monthly.id, productId: 0, variationId: blue.id },
      { priceId: ebook.prices[0].id, productId: ebook.id, variationId: 0 },
      { priceId: onetime.id, productId: 0, variationId: 0 },
      { priceId: 0, productId: 0, variationId: 0 },
      { priceId: 999999, productId: 0, variationId: 0 },
      { priceId: ebook.prices[0].id, productId: shirt.id, variationId: 0 },
      { priceId: draft.prices[0].id, productId: 0, variationId: 0 },
      { priceId: onetime.id, productId: 0, variationId: 424242 },
      { priceId: ebook.prices[0].id, productId: 0, variationId: red.id },
    ];
    const { results } = await c.lookup.getPurchasables({ lines: refs }, guest);
    const ok = (i: number) => (results[i].result?.$case === 'purchasable' ? results[i].result.value : undefined);
    const err = (i: number) =>
      results[i].result?.$case === 'error' ? [results[i].result.value.code, results[i].result.value.status] : undefined;
    expect(results.map((r) => r.ref)).toEqual(refs);
    expect(ok(0)).toMatchObject({
      productId: shirt.id,
      priceId: onetime.id,
      variationId: red.id,
      name: 'T-Shirt - Red, L',
      image: 'https://img.example.test/shirt.png',
      unitAmount: '20.00',
      currency: 'USD',
      priceType: 'onetime',
      shippingRequired: true,
      sku: 'TS-RL',
      stock: { manageStock: true, stockQuantity: 4, stockStatus: 'instock', backordersAllowed: false },
    });
    expect(ok(1)).toMatchObject({
      name: 'T-Shirt - Blue, M',
      unitAmount: '22.00',
      image: 'https://img.example.test/blue.png',
      stock: { stockStatus: 'outofstock' },
    });
    expect(ok(2)).toMatchObject({
      unitAmount: '15.00',
      priceType: 'subscription',
      billingPeriod: 'month',
      billingInterval: 1,
      trialDays: 7,
    });
    expect(ok(3)).toMatchObject({
      name: 'E-book',
      unitAmount: '9.99',
      downloadable: true,
      shippingRequired: false,
      stock: { manageStock: false },
    });
    expect(err(4)).toEqual(['shop_cart_variation_required', 422]);
    for (const i of [5, 6, 7, 8]) expect(err(i)).toEqual(['shop_cart_invalid_price', 422]);
    expect(err(9)).toEqual(['shop_cart_invalid_variation', 422]);
    expect(err(10)).toEqual(['shop_cart_invalid_variation', 422]);
  });

  it('caps the batch size', async () => {
    const lines = Array.from({ length: 101 }, () => ({ priceId: 1, productId: 0, variationId: 0 }));
    expect(await failure(c.lookup.getPurchasables({ lines }, guest))).toEqual(['rest_invalid_param', 400]);
  });
});

describe('GetVariations', () => {
  it("lists a variable product's variations, hiding stock from the public when asked to", async () => {
    const res = await c.lookup.getVariations({ productId: shirt.id }, guest);
    expect(res.productId).toBe(shirt.id);
    expect(res.variations.map((v) => [v.attributes, v.unitAmount, v.stockQuantity, v.stockStatus])).toEqual([
      [{ color: 'Red', size: 'L' }, '20.00', undefined, 'instock'],
      [{ color: 'Blue', size: 'M' }, '22.00', undefined, 'outofstock'],
    ]);
    const asManager = await c.lookup.getVariations({ productId: shirt.id }, manager);
    expect(asManager.variations.map((v) => v.stockQuantity)).toEqual([4, 0]);
  });

  it('answers 404 for missing or hidden products and 422 for simple ones', async () => {
    const simple = await createSimpleProduct(c, { title: 'Plain' });
    const draft = await c.products.createProduct(
      {
        fields: catalog.ProductFields.fromPartial({
          title: 'Hidden',
          productType: 'variable',
          variations: { items: [variationInput({ a: 'b' })] },
        }),
      },
      manager,
    );
    expect(await failure(c.lookup.getVariations({ productId: 999999 }, guest))).toEqual(['rest_post_invalid_id', 404]);
    expect(await failure(c.lookup.getVariations({ productId: draft.product!.id }, customer))).toEqual([
      'rest_post_invalid_id',
      404,
    ]);
    expect(await failure(c.lookup.getVariations({ productId: simple.id }, guest))).toEqual([
      'shop_product_not_variable',
      422,
    ]);
  });
});
