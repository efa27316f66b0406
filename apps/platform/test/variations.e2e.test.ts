import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';

let stack: Platform;
let admin: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let seed: CatalogAdmin;
let shirt: catalog.Product;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'shopper@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  seed = await connectCatalogAdmin(stack, admin);
  shirt = await seed.variableProduct(
    [
      { attributes: { size: 'L', color: 'Red' }, sku: 'TEE-RL', stockQuantity: 4 },
      {
        attributes: { size: 'M', color: 'Blue' },
        sku: 'TEE-BM',
        amount: '22.50',
        stockQuantity: 0,
        image: 'https://img.example.test/blue.png',
      },
    ],
    { title: 'Tee', amount: '19.99', manageStock: true },
  );
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
});

const variationsUrl = (productId: number | string) => `/shop/v1/cart/products/${productId}/variations`;

describe('GET /cart/products/<product_id>/variations', () => {
  it('lists the variations of a published variable product to guests', async () => {
    const [red, blue] = shirt.variations;
    const res = await guest.get(variationsUrl(shirt.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      product_id: shirt.id,
      variations: [
        {
          id: red.id,
          attributes: { size: 'L', color: 'Red' },
          sku: 'TEE-RL',
          price_id: shirt.prices[0].id,
          amount: null,
          price: 19.99,
          currency: 'USD',
          stock_quantity: 4,
          stock_status: 'instock',
          image: '',
        },
        {
          id: blue.id,
          attributes: { size: 'M', color: 'Blue' },
          sku: 'TEE-BM',
          price_id: shirt.prices[0].id,
          amount: 22.5,
          price: 22.5,
          currency: 'USD',
          stock_quantity: 0,
          stock_status: 'outofstock',
          image: 'https://img.example.test/blue.png',
        },
      ],
    });
    // Attribute order is the product's, not alphabetical.
    expect(Object.keys(res.body.variations[0].attributes)).toEqual(['size', 'color']);
    expect((await customer.get(variationsUrl(shirt.id))).body).toEqual(res.body);
  });

  it('hides quantities of hide_stock products from shoppers, not from stock editors', async () => {
    const hidden = await seed.variableProduct([{ attributes: { size: 'S' }, sku: 'HID-S', stockQuantity: 9 }], {
      manageStock: true,
      hideStock: true,
    });
    const asGuest = await guest.get(variationsUrl(hidden.id));
    expect(asGuest.body.variations[0]).toMatchObject({ stock_quantity: null, stock_status: 'instock' });
    const asAdmin = await admin.get(variationsUrl(hidden.id));
    expect(asAdmin.body.variations[0].stock_quantity).toBe(9);
  });

  it('shows null quantities when stock is not managed', async () => {
    const unmanaged = await seed.variableProduct([{ attributes: { finish: 'matte' }, sku: 'UNM-1' }]);
    const res = await guest.get(variationsUrl(unmanaged.id));
    expect(res.body.variations).toEqual([
      expect.objectContaining({ attributes: { finish: 'matte' }, stock_quantity: null, stock_status: 'instock' }),
    ]);
  });

  it('is 404 for a missing product or one the caller cannot see', async () => {
    expectError(await guest.get(variationsUrl(999_999)), 404, 'rest_post_invalid_id');
    expectError(await guest.get(variationsUrl(2_147_483_647)), 404, 'rest_post_invalid_id');
    const draft = await seed.variableProduct([{ attributes: { size: 'XL' }, sku: 'DRAFT-XL' }], { status: 'draft' });
    expectError(await guest.get(variationsUrl(draft.id)), 404, 'rest_post_invalid_id');
    expectError(await customer.get(variationsUrl(draft.id)), 404, 'rest_post_invalid_id');
    expect((await admin.get(variationsUrl(draft.id))).status).toBe(200);
  });

  it('is 422 shop_product_not_variable for other products', async () => {
    const simple = await seed.simpleProduct({ title: 'Poster' });
    expectError(await guest.get(variationsUrl(simple.id)), 422, 'shop_product_not_variable');
  });

  it('rejects product ids that cannot exist with 400', async () => {
    for (const id of ['0', '-3', 'abc', '1.5', '2147483648', '99999999999999999999']) {
      expectError(await guest.get(variationsUrl(id)), 400, 'rest_invalid_param');
    }
  });

  it('is a cart route for publishable keys: the embed addon denies an unknown key (401 shop_pk_invalid)', async () => {
    expectError(await guest.get(variationsUrl(shirt.id), { headers: { 'X-Shop-Pk': 'pk_test_123' } }), 401, 'shop_pk_invalid');
    expectError(await guest.get(`${variationsUrl(shirt.id)}?pk=pk_test_123`), 401, 'shop_pk_invalid');
    expectError(await admin.get(variationsUrl(shirt.id), { headers: { 'X-Shop-Pk': 'pk_test_123' } }), 401, 'shop_pk_invalid');
  });

  it('describes the route with OPTIONS', async () => {
    const res = await guest.options(variationsUrl(shirt.id));
    expect(res.body).toMatchObject({ namespace: 'shop/v1', methods: ['GET'], schema: { properties: { product_id: {}, variations: {} } } });
  });
});
