import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { catalog } from '@storefront/proto/catalog';
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
    email: 'stock-manager@example.com',
    username: 'stockmanager',
    password: 'password-1',
    roles: ['shop_manager'],
  });
  expect(created.status).toBe(201);
  manager = new ShopClient(stack.url);
  await manager.login('stockmanager', 'password-1');
  customer = new ShopClient(stack.url);
  expect((await customer.post('/shop/v1/auth/register', { email: 'stock-buyer@example.com', password: 'password-1' })).status).toBe(200);
  guest = new ShopClient(stack.url);
  seed = await connectCatalogAdmin(stack, admin);
});
afterAll(async () => {
  seed?.close();
  await stack?.stop();
});

const adjustUrl = (productId: number | string) => `/shop/v1/products/${productId}/stock-adjust`;
const movementsUrl = (productId: number | string, query = '') => `/shop/v1/products/${productId}/stock-movements${query}`;
const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params)).toContain(field);
}

function expectMissing(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_missing_callback_param');
  expect(res.body.data.params).toContain(field);
}

const managedMug = (stock = 10, extra: Partial<catalog.ProductFields> = {}) =>
  seed.simpleProduct({ title: 'Mug', stock, ...extra });

describe('capability edit_shop_products', () => {
  it('is 401 rest_forbidden for guests, 403 for customers, allowed for shop managers and administrators', async () => {
    const mug = await managedMug();
    const calls: Array<(c: ShopClient) => Promise<ShopResponse>> = [
      (c) => c.post(adjustUrl(mug.id), { action: 'add', quantity: 1 }),
      (c) => c.get(movementsUrl(mug.id)),
    ];
    for (const call of calls) {
      expectError(await call(guest), 401, 'rest_forbidden');
      expectError(await call(customer), 403, 'rest_forbidden');
      expect((await call(manager)).status).toBe(200);
      expect((await call(admin)).status).toBe(200);
    }
  });

  it('is decided before the input is read (a guest with a bad body still gets 401)', async () => {
    expectError(await guest.post(adjustUrl(1), { action: 'explode' }), 401, 'rest_forbidden');
    expectError(await customer.get(movementsUrl(1, '?per_page=0')), 403, 'rest_forbidden');
  });
});

describe('POST /products/<id>/stock-adjust', () => {
  it('adds, removes and sets; answers 200 with the new level and its movement', async () => {
    const mug = await managedMug(10);
    const added = await admin.post(adjustUrl(mug.id), { action: 'add', quantity: 5, reason: 'recount', note: 'found a box' });
    expect(added.status).toBe(200);
    expect(added.body).toEqual({
      product_id: mug.id,
      variation_id: 0,
      stock_quantity: 15,
      stock_status: 'instock',
      manage_stock: true,
      backorders_allowed: false,
      movement: {
        id: expect.any(Number),
        product_id: mug.id,
        variation_id: 0,
        user_id: seed.caller.userId,
        date: expect.stringMatching(DATE_TIME),
        quantity_before: 10,
        quantity_after: 15,
        delta: 5,
        reason: 'recount',
        note: 'found a box',
        _links: {
          self: [{ href: `${stack.url}${movementsUrl(mug.id)}` }],
          collection: [{ href: `${stack.url}${movementsUrl(mug.id)}` }],
        },
      },
    });
    const dated = new Date(`${added.body.movement.date.replace(' ', 'T')}Z`).getTime();
    expect(Math.abs(Date.now() - dated)).toBeLessThan(60_000);

    const removed = await manager.post(adjustUrl(mug.id), { action: 'remove', quantity: 15 });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ stock_quantity: 0, stock_status: 'outofstock' });
    // Defaults: reason manual, empty note; the manager is recorded as the author.
    expect(removed.body.movement).toMatchObject({ quantity_before: 15, quantity_after: 0, delta: -15, reason: 'manual', note: '' });
    expect(removed.body.movement.user_id).not.toBe(seed.caller.userId);
    expect(removed.body.movement.user_id).toBeGreaterThan(0);

    const set = await admin.post(adjustUrl(mug.id), { action: 'set', quantity: 7 });
    expect(set.body).toMatchObject({ stock_quantity: 7, stock_status: 'instock', movement: { quantity_before: 0, delta: 7 } });
    const zero = await admin.post(adjustUrl(mug.id), { action: 'add', quantity: 0 });
    expect(zero.body).toMatchObject({ stock_quantity: 7, movement: { delta: 0 } });
  });

  it('refuses to go below zero without backorders (422 shop_stock_insufficient), allows it with them', async () => {
    const mug = await managedMug(2);
    expectError(await admin.post(adjustUrl(mug.id), { action: 'remove', quantity: 3 }), 422, 'shop_stock_insufficient');
    const level = await admin.get(movementsUrl(mug.id));
    expect(level.body[0].quantity_after).toBe(2);

    const backordered = await managedMug(2, { backordersAllowed: true });
    const res = await admin.post(adjustUrl(backordered.id), { action: 'remove', quantity: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stock_quantity: -1, stock_status: 'onbackorder', backorders_allowed: true });
  });

  it('adjusts a variation of a variable product, which needs a variation_id of its own', async () => {
    const shirt = await seed.variableProduct(
      [
        { attributes: { size: 'S' }, sku: 'ADJ-S', stockQuantity: 3 },
        { attributes: { size: 'M' }, sku: 'ADJ-M', stockQuantity: 1 },
      ],
      { title: 'Shirt', manageStock: true },
    );
    const [small, medium] = shirt.variations;
    const res = await admin.post(adjustUrl(shirt.id), { action: 'add', quantity: 2, variation_id: small.id });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ product_id: shirt.id, variation_id: small.id, stock_quantity: 5 });
    expect(res.body.movement._links.self[0].href).toBe(`${stack.url}${movementsUrl(shirt.id, `?variation_id=${small.id}`)}`);
    const tooMany = { action: 'remove', quantity: 2, variation_id: medium.id };
    expectError(await admin.post(adjustUrl(shirt.id), tooMany), 422, 'shop_stock_insufficient');
    expectInvalid(await admin.post(adjustUrl(shirt.id), { action: 'add', quantity: 1 }), 'variation_id');

    const other = await seed.variableProduct([{ attributes: { size: 'L' }, sku: 'ADJ-OTHER' }], { manageStock: true });
    const foreign = { action: 'add', quantity: 1, variation_id: other.variations[0].id };
    expectError(await admin.post(adjustUrl(shirt.id), foreign), 404, 'shop_variation_invalid_id');
    expectError(await admin.post(adjustUrl(shirt.id), { ...foreign, variation_id: 999_999 }), 404, 'shop_variation_invalid_id');
    const mug = await managedMug(1);
    expectError(await admin.post(adjustUrl(mug.id), { ...foreign, variation_id: small.id }), 404, 'shop_variation_invalid_id');
  });

  it('is 422 shop_stock_not_managed for a product that does not manage stock, 404 for unknown products', async () => {
    const unmanaged = await seed.simpleProduct({ title: 'Gift card' });
    expectError(await admin.post(adjustUrl(unmanaged.id), { action: 'add', quantity: 1 }), 422, 'shop_stock_not_managed');
    expectError(await admin.post(adjustUrl(999_999), { action: 'add', quantity: 1 }), 404, 'rest_post_invalid_id');
    expectError(await admin.post(adjustUrl(2_147_483_647), { action: 'add', quantity: 1 }), 404, 'rest_post_invalid_id');
  });

  it('rejects bad input with 400 before anything changes', async () => {
    const mug = await managedMug(4);
    const url = adjustUrl(mug.id);
    expectMissing(await admin.post(url, { quantity: 1 }), 'action');
    expectMissing(await admin.post(url, { action: 'add' }), 'quantity');
    expectMissing(await admin.post(url, {}), 'action');
    // No body at all is a malformed request rather than missing fields (gateway-wide behaviour).
    expectError(await admin.post(url), 400);
    expectInvalid(await admin.post(url, { action: 'multiply', quantity: 1 }), 'action');
    expectInvalid(await admin.post(url, { action: 'add', quantity: -1 }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1.5 }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'add', quantity: '5' }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'add', quantity: null }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1e10 }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'set', quantity: 2_000_000_000 }), 'quantity');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, variation_id: '0' }), 'variation_id');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, variation_id: -1 }), 'variation_id');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, variation_id: 2_147_483_648 }), 'variation_id');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, reason: 42 }), 'reason');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, reason: "x'; drop table stock; --" }), 'reason');
    expectInvalid(await admin.post(url, { action: 'add', quantity: 1, note: 'n'.repeat(1001) }), 'note');
    expectInvalid(await admin.post(url, [{ action: 'add', quantity: 1 }]), 'body');
    expectError(await admin.post(url, undefined, { raw: '{"action":' }), 400, 'rest_invalid_json');
    const form = { raw: 'action=add&quantity=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expectError(await admin.post(url, undefined, form), 415);
    for (const id of ['0', '-1', 'abc', '2147483648', '1.5']) {
      const res = await admin.post(adjustUrl(id), { action: 'add', quantity: 1 });
      expect(res.status).toBe(400);
      expect(res.body.data.status).toBe(400);
    }
    const history = await admin.get(movementsUrl(mug.id));
    expect(history.body).toHaveLength(1);
    expect(history.body[0].quantity_after).toBe(4);
  });
});

describe('GET /products/<id>/stock-movements', () => {
  it('pages the history newest first, with pagination headers and links', async () => {
    const mug = await managedMug(1);
    for (let n = 0; n < 4; n++) await admin.post(adjustUrl(mug.id), { action: 'add', quantity: 1, note: `n${n}` });
    const page1 = await admin.get(movementsUrl(mug.id, '?per_page=2'));
    expect(page1.status).toBe(200);
    expect(page1.headers.get('x-platform-total')).toBe('5');
    expect(page1.headers.get('x-platform-totalpages')).toBe('3');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.headers.get('link')).not.toContain('rel="prev"');
    expect(page1.body.map((m: { note: string }) => m.note)).toEqual(['n3', 'n2']);
    expect(page1.body[0]).toEqual({
      id: expect.any(Number),
      product_id: mug.id,
      variation_id: 0,
      user_id: seed.caller.userId,
      date: expect.stringMatching(DATE_TIME),
      quantity_before: 4,
      quantity_after: 5,
      delta: 1,
      reason: 'manual',
      note: 'n3',
      _links: { self: [{ href: `${stack.url}${movementsUrl(mug.id)}` }], collection: [{ href: `${stack.url}${movementsUrl(mug.id)}` }] },
    });
    const page3 = await admin.get(movementsUrl(mug.id, '?per_page=2&page=3'));
    expect(page3.headers.get('link')).toContain('rel="prev"');
    expect(page3.headers.get('link')).not.toContain('rel="next"');
    // The oldest movement is the level the product was created with.
    expect(page3.body).toEqual([expect.objectContaining({ quantity_before: 0, quantity_after: 1, reason: 'initial' })]);
    expect((await admin.get(movementsUrl(mug.id, '?per_page=2&page=4'))).body).toEqual([]);

    const defaults = await admin.get(movementsUrl(mug.id));
    expect(defaults.body).toHaveLength(5);
    expect(defaults.headers.get('x-platform-totalpages')).toBe('1');
  });

  it('defaults to 25 per page', async () => {
    // Created at 0: no initial movement, so the history is exactly these 26.
    const mug = await managedMug(0);
    await Promise.all(Array.from({ length: 26 }, () => admin.post(adjustUrl(mug.id), { action: 'add', quantity: 1 })));
    const res = await admin.get(movementsUrl(mug.id));
    expect(res.body).toHaveLength(25);
    expect(res.headers.get('x-platform-total')).toBe('26');
    expect(res.headers.get('x-platform-totalpages')).toBe('2');
  });

  it('filters by variation_id', async () => {
    const shirt = await seed.variableProduct(
      [
        { attributes: { size: 'S' }, sku: 'HIST-S', stockQuantity: 1 },
        { attributes: { size: 'M' }, sku: 'HIST-M', stockQuantity: 2 },
      ],
      { manageStock: true },
    );
    const [small, medium] = shirt.variations;
    await admin.post(adjustUrl(shirt.id), { action: 'add', quantity: 3, variation_id: medium.id });
    const mediums = await admin.get(movementsUrl(shirt.id, `?variation_id=${medium.id}`));
    expect(mediums.body.map((m: { delta: number }) => m.delta)).toEqual([3, 2]);
    expect(mediums.body.every((m: { variation_id: number }) => m.variation_id === medium.id)).toBe(true);
    const smalls = await admin.get(movementsUrl(shirt.id, `?variation_id=${small.id}`));
    expect(smalls.body.map((m: { quantity_after: number }) => m.quantity_after)).toEqual([1]);
    // Variation 0 of a variable product holds no stock: an empty history.
    expect((await admin.get(movementsUrl(shirt.id))).body).toEqual([]);
    expectError(await admin.get(movementsUrl(shirt.id, '?variation_id=999999')), 404, 'shop_variation_invalid_id');
  });

  it('rejects bad parameters and unknown products', async () => {
    const mug = await managedMug(1);
    const badQueries = [
      'per_page=0',
      'per_page=101',
      'per_page=abc',
      'page=0',
      'page=abc',
      'variation_id=-1',
      'variation_id=2147483648',
      'variation_id=x',
    ];
    for (const query of badQueries) expectError(await admin.get(movementsUrl(mug.id, `?${query}`)), 400, 'rest_invalid_param');
    expect((await admin.get(movementsUrl(mug.id, '?per_page=100'))).status).toBe(200);
    expect((await admin.get(movementsUrl(mug.id, '?per_page=1'))).body).toHaveLength(1);
    expectError(await admin.get(movementsUrl(999_999)), 404, 'rest_post_invalid_id');
    expectError(await admin.get(movementsUrl(2_147_483_648)), 400, 'rest_invalid_param');
    expectError(await admin.get(movementsUrl('abc')), 400, 'rest_invalid_param');
  });

  it('describes both routes with OPTIONS', async () => {
    const movements = await admin.options(movementsUrl(1));
    expect(movements.body).toMatchObject({ namespace: 'shop/v1', methods: ['GET'], schema: { properties: { delta: {} } } });
    expect(movements.body.endpoints[0].args.per_page).toMatchObject({ minimum: 1, maximum: 100, default: 25 });
    const adjust = await admin.options(adjustUrl(1));
    expect(adjust.body.endpoints[0].args.action).toMatchObject({ required: true });
    expect(adjust.body.endpoints[0].args.quantity).toMatchObject({ required: true, minimum: 0 });
  });

  it('lists every route of this area in the OpenAPI document', async () => {
    const { paths } = (await guest.get('/shop/v1/openapi.json')).body;
    expect(paths['/shop/v1/products/{id}/stock-adjust'].post).toBeDefined();
    expect(paths['/shop/v1/products/{id}/stock-movements'].get).toBeDefined();
    expect(paths['/shop/v1/inventory/generate-code'].post).toBeDefined();
    expect(paths['/shop/v1/inventory/resolve-codes'].post).toBeDefined();
    expect(paths['/shop/v1/cart/products/{product_id}/variations'].get).toBeDefined();
  });
});

describe('concurrent adjustments over REST', () => {
  it('lets exactly 10 of 50 parallel removes of 1 through a stock of 10, and the history adds up', async () => {
    const mug = await managedMug(10);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => (n % 2 ? admin : manager).post(adjustUrl(mug.id), { action: 'remove', quantity: 1 })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 422)).toHaveLength(40);
    for (const refused of results.filter((r) => r.status === 422)) expectError(refused, 422, 'shop_stock_insufficient');
    const levelsSeen = results.filter((r) => r.status === 200).map((r) => r.body.stock_quantity);
    expect(levelsSeen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const history = (await admin.get(movementsUrl(mug.id, '?per_page=100'))).body as Array<Record<string, number>>;
    const oldestFirst = [...history].reverse();
    expect(oldestFirst).toHaveLength(11);
    expect(oldestFirst.reduce((sum, m) => sum + m.delta, 0)).toBe(0);
    expect(oldestFirst.slice(1).reduce((sum, m) => sum + m.delta, 0)).toBe(-10);
    // One chain: each movement starts where the previous one ended, never below zero.
    oldestFirst.slice(1).forEach((m, i) => expect(m.quantity_before).toBe(oldestFirst[i].quantity_after));
    expect(Math.min(...oldestFirst.map((m) => m.quantity_after))).toBe(0);
    expectError(await admin.post(adjustUrl(mug.id), { action: 'remove', quantity: 1 }), 422, 'shop_stock_insufficient');
  });
});
