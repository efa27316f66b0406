import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

const PRODUCTS = '/shop/v1/shop_product';
const ISO_NO_ZONE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;
let categoryId: number;
let tagId: number;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  await admin.post('/shop/v1/customer', { email: 'manager@example.com', username: 'manager', password: 'password-1', roles: ['shop_manager'] });
  manager = new ShopClient(stack.url);
  await manager.login('manager', 'password-1');
  customer = new ShopClient(stack.url);
  await customer.post('/shop/v1/auth/register', { email: 'buyer@example.com', password: 'password-1' });
  guest = new ShopClient(stack.url);
  categoryId = (await admin.post('/shop/v1/shop_product_category', { name: 'Lighting' })).body.id;
  tagId = (await admin.post('/shop/v1/shop_product_tag', { name: 'New' })).body.id;
});
afterAll(() => stack?.stop());

/** A product created by the admin (published unless said otherwise). */
async function product(fields: Record<string, unknown> = {}) {
  const res = await admin.post(PRODUCTS, { title: 'Plain product', status: 'publish', ...fields });
  if (res.status !== 201) throw new Error(`product create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const ids = (body: Array<{ id: number }>) => body.map((p) => p.id);

/** Status, code and data.status of an error answer: one labelled row per input makes a failing input obvious. */
const outcome = (label: unknown, res: ShopResponse) => [label, res.status, res.body?.code, res.body?.data?.status];

describe('POST /shop_product', () => {
  it('creates a product (201, Location) and answers the full product shape in the edit context', async () => {
    const res = await manager.post(PRODUCTS, {
      title: 'Desk <Lamp> & Co',
      content: 'Warm light.\nDimmable.\n\nLED <b>inside</b>.',
      excerpt: { raw: 'A lamp.' },
      status: 'publish',
      menu_order: 3,
      meta: { origin: 'Portugal', care: { dust: 'weekly' } },
      shop_product_category: [categoryId],
      shop_product_tag: [tagId],
      product_type: 'variable',
      prices: [{ name: 'Standard', amount: 19.99, compare_at_amount: '24.50' }],
      variations: [
        { attributes: { color: 'Red' }, sku: 'LAMP-RED', stock_quantity: 4 },
        { attributes: { color: 'Blue' }, sku: 'LAMP-BLUE', amount: 21.5, stock_quantity: 0 },
      ],
      sku: 'LAMP',
      barcode: '2000000000015',
      manage_stock: true,
      shipping_required: true,
      downloadable: true,
      downloads: [{ name: 'Manual', file: 'manuals/lamp.pdf' }],
      download_limit: 5,
      images: ['https://img.example.test/lamp.png'],
    });
    expect(res.status).toBe(201);
    const p = res.body;
    expect(res.headers.get('location')).toBe(`/shop/v1/shop_product/${p.id}`);
    expect(p).toMatchObject({
      id: expect.any(Number),
      slug: 'desk-lamp-co',
      status: 'publish',
      type: 'shop_product',
      link: 'http://127.0.0.1:8080/product/desk-lamp-co/',
      title: { raw: 'Desk <Lamp> & Co', rendered: 'Desk &lt;Lamp&gt; &amp; Co' },
      content: {
        raw: 'Warm light.\nDimmable.\n\nLED <b>inside</b>.',
        rendered: '<p>Warm light.<br />\nDimmable.</p>\n<p>LED &lt;b&gt;inside&lt;/b&gt;.</p>\n',
        protected: false,
      },
      excerpt: { raw: 'A lamp.', rendered: '<p>A lamp.</p>\n', protected: false },
      menu_order: 3,
      meta: { origin: 'Portugal', care: { dust: 'weekly' } },
      shop_product_category: [categoryId],
      shop_product_tag: [tagId],
      product_type: 'variable',
      sku: 'LAMP',
      barcode: '2000000000015',
      manage_stock: true,
      stock_quantity: 4,
      stock_status: 'instock',
      backorders_allowed: false,
      hide_stock: false,
      low_stock_threshold: null,
      shipping_required: true,
      downloadable: true,
      downloads: [{ id: expect.any(String), name: 'Manual', file: 'manuals/lamp.pdf' }],
      download_limit: 5,
      download_expiry: -1,
      bundle_product_ids: [],
      images: ['https://img.example.test/lamp.png'],
    });
    expect(p.author).toBeGreaterThan(0);
    expect(p.date).toMatch(ISO_NO_ZONE);
    expect([p.date_gmt, p.modified, p.modified_gmt]).toEqual([p.date, expect.stringMatching(ISO_NO_ZONE), p.modified]);
    const priceId = p.prices[0].id;
    expect(p.prices).toEqual([
      {
        id: expect.any(Number),
        name: 'Standard',
        amount: 19.99,
        compare_at_amount: 24.5,
        currency: 'USD',
        type: 'onetime',
        billing_period: '',
        billing_interval: 0,
        trial_days: 0,
      },
    ]);
    expect(p.variations).toEqual([
      expect.objectContaining({ attributes: { color: 'Red' }, sku: 'LAMP-RED', price_id: priceId, amount: null, price: 19.99, stock_quantity: 4 }),
      expect.objectContaining({ sku: 'LAMP-BLUE', amount: 21.5, price: 21.5, stock_quantity: 0, stock_status: 'outofstock' }),
    ]);
    expect(p._links.self[0].href).toBe(`${stack.url}${PRODUCTS}/${p.id}`);
    expect(p._links.collection[0].href).toBe(`${stack.url}${PRODUCTS}`);
  });

  it('takes its defaults: a draft by the caller, simple, not managing stock', async () => {
    const res = await admin.post(PRODUCTS, { title: 'Defaults' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      product_type: 'simple',
      manage_stock: false,
      stock_quantity: null,
      prices: [],
      variations: [],
      meta: {},
      content: { raw: '', rendered: '' },
    });
  });

  it('prices written without a currency take the store currency of the platform settings', async () => {
    expect((await product({ title: 'Priced in USD', prices: [{ amount: 5 }] })).prices[0].currency).toBe('USD');
    await admin.patch('/platform/v1/settings', { currency: 'EUR' });
    try {
      // The catalog drops its cached store settings on customers.site_settings_updated.
      const priced = await waitFor(async () => {
        const p = await product({ title: 'Priced in EUR', prices: [{ amount: 5 }] });
        return p.prices[0].currency === 'EUR' ? p : null;
      }, 10_000, 200);
      expect(priced.prices[0]).toMatchObject({ amount: 5, currency: 'EUR' });
      expect((await product({ title: 'Explicit', prices: [{ amount: 5, currency: 'GBP' }] })).prices[0].currency).toBe('GBP');
    } finally {
      await admin.patch('/platform/v1/settings', { currency: 'USD' });
    }
  });

  it('makes slugs unique and uses the site URL of the platform settings in links', async () => {
    const first = await product({ title: 'Twin' });
    const second = await product({ title: 'Twin' });
    expect([first.slug, second.slug]).toEqual(['twin', 'twin-2']);
    await admin.patch('/platform/v1/settings', { site_url: 'https://shop.example.test/' });
    try {
      expect((await guest.get(`${PRODUCTS}/${second.id}`)).body.link).toBe('https://shop.example.test/product/twin-2/');
    } finally {
      await admin.patch('/platform/v1/settings', { site_url: 'http://127.0.0.1:8080' });
    }
  });

  it('refuses wrong types, negative prices, unknown terms and an id with 4xx, never 5xx', async () => {
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [{ title: 5 }, 400, 'rest_invalid_param'],
      [{ title: { raw: 5 } }, 400, 'rest_invalid_param'],
      [{ manage_stock: 'yes' }, 400, 'rest_invalid_param'],
      [{ prices: 'cheap' }, 400, 'rest_invalid_param'],
      [{ prices: [{ amount: -1 }] }, 400, 'rest_invalid_param'],
      [{ prices: [{ amount: '-1.00' }] }, 400, 'rest_invalid_param'],
      [{ prices: [{ amount: '1.999' }] }, 400, 'rest_invalid_param'],
      [{ prices: [{ name: 'no amount' }] }, 400, 'rest_missing_callback_param'],
      [{ prices: [{ amount: 5, currency: 'euro' }] }, 400, 'rest_invalid_param'],
      [{ status: 'trash' }, 400, 'rest_invalid_param'],
      [{ product_type: 'kit' }, 400, 'rest_invalid_param'],
      [{ shop_product_category: [999999] }, 400, 'rest_invalid_param'],
      [{ shop_product_category: [2 ** 31] }, 400, 'rest_invalid_param'],
      [{ shop_product_tag: Array.from({ length: 101 }, (_, i) => i + 1) }, 400, 'rest_invalid_param'],
      [{ author: 2 ** 40 }, 400, 'rest_invalid_param'],
      [{ stock_quantity: 5 }, 400, 'rest_invalid_param'],
      [{ images: ['javascript:alert(1)'] }, 400, 'rest_invalid_param'],
      [{ meta: ['not', 'an', 'object'] }, 400, 'rest_invalid_param'],
      [{ download_limit: -2 }, 400, 'rest_invalid_param'],
      [{ download_expiry: 1.5 }, 400, 'rest_invalid_param'],
      [{ downloads: [{ name: 'x', file: '/etc/passwd' }] }, 400, 'rest_invalid_param'],
      [{ downloads: [{ name: 'x', file: '../secret.pdf' }] }, 400, 'rest_invalid_param'],
      [{ downloads: [{ name: 'x', file: 'https://evil.example/a.pdf' }] }, 400, 'rest_invalid_param'],
      [{ id: 12 }, 400, 'rest_post_exists'],
    ];
    const outcomes = [];
    for (const [fields] of bad) outcomes.push(outcome(fields, await admin.post(PRODUCTS, { title: 'Bad', ...fields })));
    expect(outcomes).toEqual(bad.map(([fields, status, code]) => [fields, status, code, status]));
    expectError(await admin.post(PRODUCTS, undefined, { raw: '{"title":', headers: { 'content-type': 'application/json' } }), 400, 'rest_invalid_json');
  });

  it('rejects a SKU another product uses (case-insensitive)', async () => {
    await product({ title: 'Sku owner', sku: 'UNIQUE-1' });
    expectError(await admin.post(PRODUCTS, { title: 'Copycat', sku: 'unique-1' }), 400, 'shop_product_invalid_sku');
  });
});

describe('GET /shop_product/<id>', () => {
  it('shows raw fields only in the edit context and a subset in the embed context', async () => {
    const p = await product({ title: 'Contexts', content: 'Body', excerpt: 'Short', meta: { a: 1 } });
    const view = (await guest.get(`${PRODUCTS}/${p.id}`)).body;
    expect(view.title).toEqual({ rendered: 'Contexts' });
    expect(view.content).toEqual({ rendered: '<p>Body</p>\n', protected: false });
    expect(view.excerpt).toEqual({ rendered: '<p>Short</p>\n', protected: false });
    expect(view.meta).toEqual({ a: 1 });
    const edit = (await manager.get(`${PRODUCTS}/${p.id}?context=edit`)).body;
    expect(edit.title).toEqual({ raw: 'Contexts', rendered: 'Contexts' });
    const embed = (await guest.get(`${PRODUCTS}/${p.id}?context=embed`)).body;
    expect(Object.keys(embed).sort()).toEqual(['_links', 'author', 'date', 'excerpt', 'id', 'link', 'slug', 'title', 'type']);
    expectError(await guest.get(`${PRODUCTS}/${p.id}?context=raw`), 400, 'rest_invalid_param');
  });

  it('answers unknown and out-of-range ids with 404 / 400', async () => {
    expectError(await guest.get(`${PRODUCTS}/999999`), 404, 'rest_post_invalid_id');
    expectError(await admin.patch(`${PRODUCTS}/999999`, { title: 'x' }), 404, 'rest_post_invalid_id');
    expectError(await admin.delete(`${PRODUCTS}/999999?force=true`), 404, 'rest_post_invalid_id');
    expectError(await guest.get(`${PRODUCTS}/2147483648`), 400, 'rest_invalid_param');
    expectError(await guest.get(`${PRODUCTS}/0`), 400, 'rest_invalid_param');
    expectError(await guest.get(`${PRODUCTS}/abc`), 400, 'rest_invalid_param');
  });
});

describe('permissions (spec 5, decided by the catalog)', () => {
  it('lets guests and customers read published products only', async () => {
    const published = await product({ title: 'Public' });
    const draft = await product({ title: 'Secret draft', status: 'draft' });
    expect((await guest.get(`${PRODUCTS}/${published.id}`)).status).toBe(200);
    expect((await customer.get(`${PRODUCTS}/${published.id}`)).status).toBe(200);
    expectError(await guest.get(`${PRODUCTS}/${draft.id}`), 401, 'rest_forbidden');
    expectError(await customer.get(`${PRODUCTS}/${draft.id}`), 403, 'rest_forbidden');
    expect((await manager.get(`${PRODUCTS}/${draft.id}`)).body.status).toBe('draft');
    expect(ids((await guest.get(`${PRODUCTS}?per_page=100`)).body)).not.toContain(draft.id);
    expectError(await guest.get(`${PRODUCTS}?status=draft`), 401, 'rest_forbidden_status');
    expectError(await customer.get(`${PRODUCTS}?status=any`), 403, 'rest_forbidden_status');
    expectError(await guest.get(`${PRODUCTS}/${published.id}?context=edit`), 401, 'rest_forbidden_context');
    expectError(await customer.get(`${PRODUCTS}?context=edit`), 403, 'rest_forbidden_context');
  });

  it('refuses writes to guests (401) and customers (403)', async () => {
    const p = await product({ title: 'Guarded' });
    expectError(await guest.post(PRODUCTS, { title: 'Nope' }), 401, 'rest_cannot_create');
    expectError(await customer.post(PRODUCTS, { title: 'Nope' }), 403, 'rest_cannot_create');
    expectError(await guest.put(`${PRODUCTS}/${p.id}`, { title: 'Nope' }), 401, 'rest_cannot_edit');
    expectError(await customer.patch(`${PRODUCTS}/${p.id}`, { title: 'Nope' }), 403, 'rest_cannot_edit');
    expectError(await guest.delete(`${PRODUCTS}/${p.id}`), 401, 'rest_cannot_delete');
    expectError(await customer.delete(`${PRODUCTS}/${p.id}?force=true`), 403, 'rest_cannot_delete');
    expect((await guest.get(`${PRODUCTS}/${p.id}`)).body.title.rendered).toBe('Guarded');
  });

  it('lets shop managers and admins create, edit, publish and delete', async () => {
    for (const editor of [manager, admin]) {
      const created = await editor.post(PRODUCTS, { title: 'Staff draft' });
      expect(created.status).toBe(201);
      const published = await editor.patch(`${PRODUCTS}/${created.body.id}`, { status: 'publish' });
      expect(published.body.status).toBe('publish');
      expect((await editor.delete(`${PRODUCTS}/${created.body.id}?force=true`)).body.deleted).toBe(true);
    }
  });
});

describe('PUT/PATCH /shop_product/<id>', () => {
  it('changes only the fields sent, merges meta and replaces lists', async () => {
    const p = await product({
      title: 'Mug',
      excerpt: 'Old',
      meta: { color: 'white', size: 'large' },
      prices: [{ amount: '10' }],
      shop_product_tag: [tagId],
    });
    const res = await manager.put(`${PRODUCTS}/${p.id}`, {
      excerpt: 'A mug.',
      meta: { color: 'black', size: null, origin: { country: 'PT', handmade: true } },
      prices: [{ id: p.prices[0].id, amount: 12 }, { name: 'Gift box', amount: '99.00' }],
      shop_product_tag: [],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: { raw: 'Mug' },
      excerpt: { raw: 'A mug.' },
      meta: { color: 'black', origin: { country: 'PT', handmade: true } },
      shop_product_tag: [],
    });
    expect(res.body.meta).not.toHaveProperty('size');
    expect(res.body.prices.map((x: { id: number; amount: number }) => [x.id === p.prices[0].id, x.amount])).toEqual([
      [true, 12],
      [false, 99],
    ]);
    const again = await guest.get(`${PRODUCTS}/${p.id}`);
    expect(again.body.meta).toEqual({ color: 'black', origin: { country: 'PT', handmade: true } });
  });

  it('accepts its own edit-context read back unchanged', async () => {
    const p = await product({ title: 'Round trip', prices: [{ amount: 5 }], meta: { k: 'v' } });
    const read = (await admin.get(`${PRODUCTS}/${p.id}?context=edit`)).body;
    const res = await admin.put(`${PRODUCTS}/${p.id}`, read);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: { raw: 'Round trip' }, meta: { k: 'v' }, prices: [{ id: p.prices[0].id, amount: 5 }] });
  });

  it('refuses bad updates with 400', async () => {
    const p = await product({ title: 'Strict' });
    expectError(await admin.patch(`${PRODUCTS}/${p.id}`, { menu_order: 'first' }), 400, 'rest_invalid_param');
    expectError(await admin.patch(`${PRODUCTS}/${p.id}`, { prices: [{ amount: -5 }] }), 400, 'rest_invalid_param');
    expectError(await admin.patch(`${PRODUCTS}/${p.id}`, { status: 'trash' }), 400, 'rest_invalid_param');
  });
});

describe('hide_stock (inventory visibility)', () => {
  it('shows stock quantities of hide_stock products only to those who edit products', async () => {
    const p = await product({
      title: 'Hidden stock',
      product_type: 'variable',
      manage_stock: true,
      hide_stock: true,
      prices: [{ amount: 3 }],
      variations: [{ attributes: { size: 'S' }, stock_quantity: 7 }],
    });
    for (const reader of [guest, customer]) {
      const seen = (await reader.get(`${PRODUCTS}/${p.id}`)).body;
      expect([seen.stock_quantity, seen.stock_status, seen.variations[0].stock_quantity]).toEqual([null, 'instock', null]);
    }
    const listed = (await guest.get(`${PRODUCTS}?include=${p.id}`)).body[0];
    expect(listed.stock_quantity).toBeNull();
    for (const editor of [manager, admin]) {
      const seen = (await editor.get(`${PRODUCTS}/${p.id}`)).body;
      expect([seen.stock_quantity, seen.variations[0].stock_quantity]).toEqual([7, 7]);
    }
    // Signed-in reads share the response cache by class: neither copy reaches the other class.
    expect((await customer.get(`${PRODUCTS}/${p.id}`)).body.stock_quantity).toBeNull();
    expect((await customer.get(`${PRODUCTS}?include=${p.id}`)).body[0].stock_quantity).toBeNull();
    expect((await admin.get(`${PRODUCTS}?include=${p.id}`)).body[0].stock_quantity).toBe(7);
    expect((await manager.get(`${PRODUCTS}/${p.id}`)).body.stock_quantity).toBe(7);
    const visible = await product({ title: 'Visible stock', manage_stock: true, stock_quantity: 2 });
    expect((await guest.get(`${PRODUCTS}/${visible.id}`)).body.stock_quantity).toBe(2);
  });
});

describe('GET /shop_product', () => {
  let lanternIds: number[];

  beforeAll(async () => {
    lanternIds = [];
    for (const title of ['Alpha lantern', 'Beta lantern', 'Gamma lantern']) {
      lanternIds.push((await product({ title, excerpt: 'lighting', shop_product_category: [categoryId] })).id);
    }
  });

  it('paginates with X-Platform-Total, X-Platform-TotalPages and Link', async () => {
    const page1 = await guest.get(`${PRODUCTS}?search=lantern&per_page=2&orderby=title&order=asc`);
    expect(page1.status).toBe(200);
    expect(page1.body.map((p: { title: { rendered: string } }) => p.title.rendered)).toEqual(['Alpha lantern', 'Beta lantern']);
    expect(page1.headers.get('x-platform-total')).toBe('3');
    expect(page1.headers.get('x-platform-totalpages')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.headers.get('link')).not.toContain('rel="prev"');
    const page2 = await guest.get(`${PRODUCTS}?search=lantern&per_page=2&orderby=title&order=asc&page=2`);
    expect(page2.body.map((p: { title: { rendered: string } }) => p.title.rendered)).toEqual(['Gamma lantern']);
    expect(page2.headers.get('link')).toContain('rel="prev"');
    expect(page2.headers.get('link')).not.toContain('rel="next"');
    expectError(await guest.get(`${PRODUCTS}?search=lantern&per_page=2&page=3`), 400, 'rest_post_invalid_page_number');
  });

  it('filters by include/exclude, slug and orders by include', async () => {
    const [a, b, c] = lanternIds;
    expect(ids((await guest.get(`${PRODUCTS}?include=${c},${a}&orderby=include`)).body)).toEqual([c, a]);
    expect(ids((await guest.get(`${PRODUCTS}?include[]=${a}&include[]=${b}&exclude=${a}`)).body)).toEqual([b]);
    expect(ids((await guest.get(`${PRODUCTS}?slug=beta-lantern`)).body)).toEqual([b]);
    expect(ids((await guest.get(`${PRODUCTS}?search=lantern&orderby=id&order=asc`)).body)).toEqual([a, b, c]);
  });

  it('filters by category and tag, and their exclusions', async () => {
    const tagged = await product({ title: 'Tagged lantern', shop_product_tag: [tagId], shop_product_category: [categoryId] });
    expect(ids((await guest.get(`${PRODUCTS}?shop_product_tag=${tagId}&search=lantern`)).body)).toEqual([tagged.id]);
    const inCategory = ids((await guest.get(`${PRODUCTS}?shop_product_category=${categoryId}&per_page=100`)).body);
    expect(inCategory).toEqual(expect.arrayContaining([...lanternIds, tagged.id]));
    const notTagged = ids((await guest.get(`${PRODUCTS}?shop_product_category=${categoryId}&shop_product_tag_exclude=${tagId}&per_page=100`)).body);
    expect(notTagged).toEqual(expect.arrayContaining(lanternIds));
    expect(notTagged).not.toContain(tagged.id);
    const outside = ids((await guest.get(`${PRODUCTS}?shop_product_category_exclude=${categoryId}&per_page=100`)).body);
    expect(outside.some((id) => lanternIds.includes(id))).toBe(false);
  });

  it('lists other statuses for editors', async () => {
    const draft = await product({ title: 'Listed draft lantern', status: 'draft' });
    const drafts = await manager.get(`${PRODUCTS}?status=draft&search=lantern`);
    expect(ids(drafts.body)).toEqual([draft.id]);
    const any = ids((await manager.get(`${PRODUCTS}?status=publish,draft&search=lantern&per_page=100`)).body);
    expect(any).toEqual(expect.arrayContaining([draft.id, ...lanternIds]));
  });

  it('validates collection params with 400 rest_invalid_param', async () => {
    const bad = [
      'per_page=0',
      'per_page=101',
      'page=0',
      'page=abc',
      'orderby=price',
      'order=up',
      'status=deleted',
      'context=admin',
      `search=${'x'.repeat(201)}`,
      `include=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
      'include=2147483648',
      'exclude=-1',
      'shop_product_category=abc',
      `shop_product_tag=${2 ** 31}`,
    ];
    const outcomes = [];
    for (const query of bad) outcomes.push(outcome(query, await guest.get(`${PRODUCTS}?${query}`)));
    expect(outcomes).toEqual(bad.map((query) => [query, 400, 'rest_invalid_param', 400]));
    expectError(await guest.get(`${PRODUCTS}?orderby=relevance`), 400, 'rest_no_search_term_defined');
  });

  it('treats SQL-looking searches as plain text (200)', async () => {
    for (const search of ["' or 1=1; drop table products; --", '%', '_', '\\']) {
      const res = await guest.get(`${PRODUCTS}?search=${encodeURIComponent(search)}`);
      expect([res.status, res.body]).toEqual([200, []]);
    }
  });
});

describe('DELETE /shop_product/<id>', () => {
  it('moves to the trash without force, then deletes permanently with force', async () => {
    const p = await product({ title: 'Short-lived' });
    const trashed = await manager.delete(`${PRODUCTS}/${p.id}`);
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ id: p.id, status: 'trash', title: { raw: 'Short-lived' } });
    expect(trashed.body.deleted).toBeUndefined();
    expectError(await manager.delete(`${PRODUCTS}/${p.id}`), 410, 'rest_already_trashed');
    expectError(await guest.get(`${PRODUCTS}/${p.id}`), 401, 'rest_forbidden');
    expect(ids((await manager.get(`${PRODUCTS}?status=trash`)).body)).toContain(p.id);
    const gone = await manager.delete(`${PRODUCTS}/${p.id}?force=true`);
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: p.id, status: 'trash', title: { raw: 'Short-lived' } } });
    expectError(await manager.get(`${PRODUCTS}/${p.id}`), 404, 'rest_post_invalid_id');
  });

  it('takes force from a JSON body too, and restores a trashed product by updating its status', async () => {
    const p = await product({ title: 'Body force' });
    expect((await admin.request('DELETE', `${PRODUCTS}/${p.id}`, { json: { force: true } })).body.deleted).toBe(true);
    const q = await product({ title: 'Comeback' });
    await admin.delete(`${PRODUCTS}/${q.id}`);
    expect((await admin.patch(`${PRODUCTS}/${q.id}`, { status: 'publish' })).body.status).toBe('publish');
    expectError(await admin.delete(`${PRODUCTS}/${q.id}?force=maybe`), 400, 'rest_invalid_param');
  });
});

describe('OPTIONS /shop_product', () => {
  it('describes the routes, their parameters and the product schema', async () => {
    const res = await guest.options(PRODUCTS);
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('shop/v1');
    expect(res.body.methods).toEqual(expect.arrayContaining(['GET', 'POST']));
    const list = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(list.args.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 10 });
    expect(Object.keys(list.args)).toEqual(
      expect.arrayContaining(['search', 'slug', 'status', 'orderby', 'order', 'include', 'exclude', 'context', 'shop_product_category', 'shop_product_tag_exclude']),
    );
    const create = res.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(create.args).toHaveProperty('prices');
    expect(res.body.schema.properties).toHaveProperty('stock_quantity');
    expect(res.body.schema.properties.title.properties.raw.context).toEqual(['edit']);
    const item = await guest.options(`${PRODUCTS}/1`);
    expect(item.body.methods).toEqual(expect.arrayContaining(['GET', 'PUT', 'PATCH', 'DELETE']));
    expect((await guest.get('/shop/v1/openapi.json')).body.paths).toHaveProperty(PRODUCTS);
  });
});

describe('conditional reads for guests', () => {
  it('serve an ETag, answer If-None-Match with 304, and never serve a stale copy', async () => {
    const p = await product({ title: 'Cached lamp', manage_stock: true, stock_quantity: 4 });
    const first = await guest.get(`${PRODUCTS}/${p.id}`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await guest.get(`${PRODUCTS}/${p.id}`);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await guest.get(`${PRODUCTS}/${p.id}`, { headers: { 'if-none-match': etag! } })).status).toBe(304);

    await admin.patch(`${PRODUCTS}/${p.id}`, { title: 'Renamed lamp' });
    const renamed = await guest.get(`${PRODUCTS}/${p.id}`);
    expect(renamed.body.title.rendered).toBe('Renamed lamp');
    expect(renamed.headers.get('etag')).not.toBe(etag);

    await admin.post(`/shop/v1/products/${p.id}/stock-adjust`, { action: 'set', quantity: 0 });
    const soldOut = await guest.get(`${PRODUCTS}/${p.id}`);
    expect(soldOut.body).toMatchObject({ stock_quantity: 0, stock_status: 'outofstock' });
  });

  it('keep lists fresh and their pagination headers', async () => {
    const first = await guest.get(`${PRODUCTS}?per_page=2`);
    const total = Number(first.headers.get('x-platform-total'));
    const cached = await guest.get(`${PRODUCTS}?per_page=2`);
    expect(cached.headers.get('x-platform-total')).toBe(String(total));
    expect(cached.headers.get('link')).toBe(first.headers.get('link'));
    const created = await product({ title: 'Brand new' });
    const fresh = await guest.get(`${PRODUCTS}?per_page=2`);
    expect(fresh.body[0].id).toBe(created.id);
    expect(fresh.headers.get('x-platform-total')).toBe(String(total + 1));
  });
});
