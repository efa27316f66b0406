import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';
import { connectCatalogAdmin, type CatalogAdmin } from './support/catalog-admin';

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let seed: CatalogAdmin;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  const created = await admin.post('/shop/v1/customer', {
    email: 'inventory-manager@example.com',
    username: 'invmanager',
    password: 'password-1',
    roles: ['shop_manager'],
  });
  expect(created.status).toBe(201);
  manager = new ShopClient(stack.url);
  await manager.login('invmanager', 'password-1');
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'inv-buyer@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  seed = await connectCatalogAdmin(stack, admin);
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
});

const GENERATE = '/shop/v1/inventory/generate-code';
const RESOLVE = '/shop/v1/inventory/resolve-codes';

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params)).toContain(field);
}

/** GS1 EAN-13: weights 1,3,1,3,... over the first 12 digits; the 13th tops the sum up to a multiple of 10. */
function hasValidEan13CheckDigit(code: string): boolean {
  const digits = [...code].map(Number);
  const sum = digits.slice(0, 12).reduce((acc, d, i) => acc + d * (i % 2 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === digits[12];
}

async function generated(body: Record<string, unknown>, client = admin): Promise<string> {
  const res = await client.post(GENERATE, body);
  if (res.status !== 200) throw new Error(`generate-code failed: ${res.status} ${JSON.stringify(res.body)}`);
  expect(Object.keys(res.body)).toEqual(['value']);
  return res.body.value;
}

describe('capability edit_shop_products', () => {
  it('is 401 rest_forbidden for guests, 403 for customers, allowed for shop managers and administrators', async () => {
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.post(GENERATE, { type: 'barcode' }),
      (c) => c.post(RESOLVE, { codes: ['NOTHING-1'] }),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'rest_forbidden');
      expectError(await call(customer), 403, 'rest_forbidden');
      expect((await call(manager)).status).toBe(200);
      expect((await call(admin)).status).toBe(200);
    }
    expectError(await guest.post(RESOLVE, { codes: 'not-an-array' }), 401, 'rest_forbidden');
  });
});

describe('POST /inventory/generate-code', () => {
  it('generates SKUs from the category and the name, unique across products and variations', async () => {
    const { term: category } = await seed.terms.createTerm(
      { taxonomy: 'shop_product_category', fields: { name: 'Kitchenware' } },
      seed.caller,
    );
    const request = { type: 'sku', name: 'Enamel Coffee Mug', category_id: category!.id };
    const first = await generated(request);
    expect(first).toBe('KIT-ENAMCOFF-0001');
    await seed.simpleProduct({ title: 'Mug', sku: first });
    expect(await generated(request, manager)).toBe('KIT-ENAMCOFF-0002');
    await seed.variableProduct([{ attributes: { color: 'blue' }, sku: 'kit-enamcoff-0005' }]);
    expect(await generated(request)).toBe('KIT-ENAMCOFF-0006');
    expect(await generated({ type: 'sku', name: 'Crème brûlée' })).toBe('CREMBRUL-0001');
    expect(await generated({ type: 'sku' })).toBe('ITEM-0001');
  });

  it('generates valid in-store EAN-13 barcodes', async () => {
    const codes = await Promise.all(Array.from({ length: 8 }, () => generated({ type: 'barcode' })));
    for (const code of codes) {
      expect(code).toMatch(/^2\d{12}$/);
      expect(hasValidEan13CheckDigit(code)).toBe(true);
    }
    // The check above is not vacuous: a changed check digit fails it.
    const tampered = codes[0].slice(0, 12) + String((Number(codes[0][12]) + 1) % 10);
    expect(hasValidEan13CheckDigit(tampered)).toBe(false);
  });

  it('rejects bad input', async () => {
    const missing = await admin.post(GENERATE, { name: 'x' });
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(missing.body.data.params).toEqual(['type']);
    expectInvalid(await admin.post(GENERATE, { type: 'qr' }), 'type');
    expectInvalid(await admin.post(GENERATE, { type: 'SKU' }), 'type');
    expectInvalid(await admin.post(GENERATE, { type: 'sku', name: 42 }), 'name');
    expectInvalid(await admin.post(GENERATE, { type: 'sku', name: 'n'.repeat(201) }), 'name');
    expectInvalid(await admin.post(GENERATE, { type: 'sku', category_id: '3' }), 'category_id');
    expectInvalid(await admin.post(GENERATE, { type: 'sku', category_id: -1 }), 'category_id');
    expectInvalid(await admin.post(GENERATE, { type: 'sku', category_id: 2_147_483_648 }), 'category_id');
    expectError(await admin.post(GENERATE, { type: 'sku', category_id: 999_999 }), 404, 'rest_term_invalid');
    const notJson = { raw: 'not json', headers: { 'content-type': 'application/json' } };
    expectError(await admin.post(GENERATE, undefined, notJson), 400, 'rest_invalid_json');
  });
});

describe('POST /inventory/resolve-codes', () => {
  it('resolves SKUs (case-insensitive) and barcodes of products and variations, with name and price', async () => {
    const kettle = await seed.simpleProduct({ title: 'Kettle', sku: 'KET-1', barcode: '2000000000015', amount: '24.90' });
    const shirt = await seed.variableProduct(
      [
        { attributes: { color: 'Red', size: 'L' }, sku: 'SHIRT-RL', barcode: '2000000000022' },
        { attributes: { color: 'Blue', size: 'M' }, sku: 'SHIRT-BM', amount: '22.00' },
      ],
      { title: 'T-Shirt', amount: '20.00' },
    );
    const voucher = await seed.simpleProduct({ title: 'Voucher', sku: 'VOUCHER', amount: '' });
    const [red, blue] = shirt.variations;

    const res = await manager.post(RESOLVE, { codes: ['ket-1', '2000000000022', 'SHIRT-BM', 'NOPE-404', 'voucher', ' 2000000000015 '] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      items: [
        {
          code: 'ket-1',
          matched_by: 'sku',
          product_id: kettle.id,
          variation_id: 0,
          name: 'Kettle',
          sku: 'KET-1',
          barcode: '2000000000015',
          price_id: kettle.prices[0].id,
          price: 24.9,
          currency: 'USD',
        },
        {
          code: '2000000000022',
          matched_by: 'barcode',
          product_id: shirt.id,
          variation_id: red.id,
          name: 'T-Shirt - Red, L',
          sku: 'SHIRT-RL',
          barcode: '2000000000022',
          price_id: shirt.prices[0].id,
          price: 20,
          currency: 'USD',
        },
        expect.objectContaining({ code: 'SHIRT-BM', variation_id: blue.id, name: 'T-Shirt - Blue, M', price: 22 }),
        expect.objectContaining({ code: 'voucher', product_id: voucher.id, price_id: 0, price: null, currency: '' }),
        // Codes are trimmed before the lookup.
        expect.objectContaining({ code: '2000000000015', product_id: kettle.id, matched_by: 'barcode' }),
      ],
      unknown: ['NOPE-404'],
    });
  });

  it('reports unknown codes without failing, up to 100 codes', async () => {
    const codes = Array.from({ length: 100 }, (_, n) => `UNKNOWN-${n}`);
    const res = await admin.post(RESOLVE, { codes });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ items: [], unknown: codes });
  });

  it('rejects bad input', async () => {
    expectError(await admin.post(RESOLVE, {}), 400, 'rest_missing_callback_param');
    expectInvalid(await admin.post(RESOLVE, { codes: [] }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: Array.from({ length: 101 }, (_, n) => `C${n}`) }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: 'KET-1' }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: [''] }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: ['x'.repeat(65)] }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: [42] }), 'codes');
    expectInvalid(await admin.post(RESOLVE, { codes: [null] }), 'codes');
    const sqlish = await admin.post(RESOLVE, { codes: ["' or 1=1 --", '%', '_'] });
    expect(sqlish.status).toBe(200);
    expect(sqlish.body.items).toEqual([]);
  });

  it('describes both routes with OPTIONS', async () => {
    const resolve = await admin.options(RESOLVE);
    expect(resolve.body).toMatchObject({ methods: ['POST'], schema: { properties: { items: {}, unknown: {} } } });
    expect(resolve.body.endpoints[0].args.codes).toMatchObject({ required: true, minItems: 1, maxItems: 100 });
    const generate = await admin.options(GENERATE);
    expect(generate.body.endpoints[0].args.type).toMatchObject({ required: true });
    expect(generate.body.schema.properties.value).toBeDefined();
  });
});
