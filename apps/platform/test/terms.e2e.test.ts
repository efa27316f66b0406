import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

const CATEGORIES = '/shop/v1/shop_product_category';
const TAGS = '/shop/v1/shop_product_tag';

let stack: Platform;
let admin: ShopClient;
let manager: ShopClient;
let customer: ShopClient;
let guest: ShopClient;

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
});
afterAll(() => stack?.stop());

async function term(collection: string, fields: Record<string, unknown>) {
  const res = await manager.post(collection, fields);
  if (res.status !== 201) throw new Error(`term create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const names = (body: Array<{ name: string }>) => body.map((t) => t.name);

/** Status, code and data.status of an error answer: one labelled row per input makes a failing input obvious. */
const outcome = (label: unknown, res: ShopResponse) => [label, res.status, res.body?.code, res.body?.data?.status];

describe('POST /shop_product_category and /shop_product_tag', () => {
  it('creates a category (201, Location) in the terms shape', async () => {
    const res = await manager.post(CATEGORIES, { name: 'Home & Garden', description: 'Everything for the house.', meta: { icon: 'house' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${CATEGORIES}/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      count: 0,
      description: 'Everything for the house.',
      link: 'http://127.0.0.1:8080/product-category/home-garden/',
      name: 'Home & Garden',
      slug: 'home-garden',
      taxonomy: 'shop_product_category',
      parent: 0,
      meta: { icon: 'house' },
      _links: expect.objectContaining({
        self: [{ href: `${stack.url}${CATEGORIES}/${res.body.id}` }],
        collection: [{ href: `${stack.url}${CATEGORIES}` }],
        'shop:post_type': [{ href: `${stack.url}/shop/v1/shop_product?shop_product_category=${res.body.id}` }],
      }),
    });
  });

  it('creates child categories and flat tags (a tag has no parent)', async () => {
    const parent = await term(CATEGORIES, { name: 'Furniture' });
    const child = await term(CATEGORIES, { name: 'Chairs', parent: parent.id, slug: 'seating' });
    expect(child).toMatchObject({ parent: parent.id, slug: 'seating' });
    expect(child._links.up[0].href).toBe(`${stack.url}${CATEGORIES}/${parent.id}`);
    const tag = await term(TAGS, { name: 'Sale', parent: parent.id });
    expect(tag).toMatchObject({ taxonomy: 'shop_product_tag', link: 'http://127.0.0.1:8080/product-tag/sale/' });
    expect(tag).not.toHaveProperty('parent');
  });

  it('refuses duplicates, unknown parents and bad input with 400', async () => {
    const base = await term(CATEGORIES, { name: 'Unique name' });
    expectError(await manager.post(CATEGORIES, { name: 'Unique name' }), 400, 'term_exists');
    expectError(await manager.post(CATEGORIES, { name: 'Other', slug: base.slug }), 400, 'duplicate_term_slug');
    expectError(await manager.post(CATEGORIES, { name: 'Orphan', parent: 999999 }), 400, 'rest_term_invalid');
    expectError(await manager.post(CATEGORIES, { name: 'Orphan', parent: 2 ** 31 }), 400, 'rest_invalid_param');
    expectError(await manager.post(CATEGORIES, { description: 'no name' }), 400, 'rest_missing_callback_param');
    expectError(await manager.post(CATEGORIES, { name: '   ' }), 400, 'rest_invalid_param');
    expectError(await manager.post(CATEGORIES, { name: 42 }), 400, 'rest_invalid_param');
    expectError(await manager.post(TAGS, { name: 'x', meta: 'flat' }), 400, 'rest_invalid_param');
    expectError(await manager.patch(`${CATEGORIES}/${base.id}`, { parent: base.id }), 400, 'rest_invalid_param');
  });
});

describe('permissions', () => {
  it('lets everyone read, but only product-term editors write', async () => {
    const t = await term(TAGS, { name: 'Guarded tag' });
    expect((await guest.get(`${TAGS}/${t.id}`)).body.name).toBe('Guarded tag');
    expect((await customer.get(TAGS)).status).toBe(200);
    expectError(await guest.post(TAGS, { name: 'Nope' }), 401, 'rest_cannot_create');
    expectError(await customer.post(TAGS, { name: 'Nope' }), 403, 'rest_cannot_create');
    expectError(await guest.patch(`${TAGS}/${t.id}`, { name: 'Nope' }), 401, 'rest_cannot_update');
    expectError(await customer.put(`${TAGS}/${t.id}`, { name: 'Nope' }), 403, 'rest_cannot_update');
    expectError(await customer.delete(`${TAGS}/${t.id}?force=true`), 403, 'rest_cannot_delete');
    expectError(await guest.get(`${TAGS}?context=edit`), 401, 'rest_forbidden_context');
    expectError(await customer.get(`${TAGS}/${t.id}?context=edit`), 403, 'rest_forbidden_context');
    expect((await admin.patch(`${TAGS}/${t.id}`, { name: 'Admin tag' })).body.name).toBe('Admin tag');
  });
});

describe('GET/PUT/PATCH/DELETE /<taxonomy>/<id>', () => {
  it('reads in the view, edit and embed contexts', async () => {
    const t = await term(CATEGORIES, { name: 'Contexts', description: 'd' });
    expect((await guest.get(`${CATEGORIES}/${t.id}`)).body).toMatchObject({ name: 'Contexts', description: 'd', count: 0 });
    expect((await manager.get(`${CATEGORIES}/${t.id}?context=edit`)).body.meta).toEqual({});
    const embed = (await guest.get(`${CATEGORIES}/${t.id}?context=embed`)).body;
    expect(Object.keys(embed).sort()).toEqual(['_links', 'id', 'link', 'name', 'slug', 'taxonomy']);
  });

  it('answers unknown ids (and ids of the other taxonomy) with 404, bad ids with 400', async () => {
    const tag = await term(TAGS, { name: 'Only a tag' });
    expectError(await guest.get(`${CATEGORIES}/${tag.id}`), 404, 'rest_term_invalid');
    expectError(await guest.get(`${TAGS}/999999`), 404, 'rest_term_invalid');
    expectError(await manager.patch(`${TAGS}/999999`, { name: 'x' }), 404, 'rest_term_invalid');
    expectError(await guest.get(`${TAGS}/2147483648`), 400, 'rest_invalid_param');
    expectError(await guest.get(`${TAGS}/nope`), 400, 'rest_invalid_param');
  });

  it('updates only the fields sent and merges meta', async () => {
    const t = await term(CATEGORIES, { name: 'Lamps', description: 'Old', meta: { a: 1, b: 2 } });
    const res = await manager.put(`${CATEGORIES}/${t.id}`, { description: 'New', meta: { b: null, c: { deep: true } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Lamps', slug: 'lamps', description: 'New', meta: { a: 1, c: { deep: true } } });
    expect(res.body.meta).not.toHaveProperty('b');
    const renamed = await manager.patch(`${CATEGORIES}/${t.id}`, { name: 'Lights', slug: 'lights' });
    expect(renamed.body).toMatchObject({ name: 'Lights', slug: 'lights', description: 'New' });
    const roundTrip = await manager.put(`${CATEGORIES}/${t.id}`, (await manager.get(`${CATEGORIES}/${t.id}?context=edit`)).body);
    expect(roundTrip.status).toBe(200);
  });

  it('deletes only with force (501 rest_trash_not_supported otherwise); children move up', async () => {
    const parent = await term(CATEGORIES, { name: 'Doomed' });
    const child = await term(CATEGORIES, { name: 'Survivor', parent: parent.id });
    expectError(await manager.delete(`${CATEGORIES}/${parent.id}`), 501, 'rest_trash_not_supported');
    expect((await guest.get(`${CATEGORIES}/${parent.id}`)).status).toBe(200);
    const res = await manager.delete(`${CATEGORIES}/${parent.id}?force=true`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: parent.id, name: 'Doomed' } });
    expectError(await guest.get(`${CATEGORIES}/${parent.id}`), 404, 'rest_term_invalid');
    expect((await guest.get(`${CATEGORIES}/${child.id}`)).body.parent).toBe(0);
    const tag = await term(TAGS, { name: 'Body force' });
    expect((await manager.request('DELETE', `${TAGS}/${tag.id}`, { json: { force: true } })).body.deleted).toBe(true);
    expectError(await manager.delete(`${TAGS}/999999?force=true`), 404, 'rest_term_invalid');
  });
});

describe('GET /shop_product_category and /shop_product_tag', () => {
  let root: { id: number };
  let productId: number;

  beforeAll(async () => {
    root = await term(CATEGORIES, { name: 'Outdoor' });
    for (const name of ['Tents', 'Backpacks', 'Stoves']) await term(CATEGORIES, { name, parent: root.id });
    const stocked = await term(CATEGORIES, { name: 'Boots', parent: root.id });
    const product = await admin.post('/shop/v1/shop_product', { title: 'Hiking boot', status: 'publish', shop_product_category: [stocked.id] });
    productId = product.body.id;
  });

  it('paginates children of a parent with headers and Link, ordered by name', async () => {
    const page1 = await guest.get(`${CATEGORIES}?parent=${root.id}&per_page=3`);
    expect(names(page1.body)).toEqual(['Backpacks', 'Boots', 'Stoves']);
    expect(page1.headers.get('x-platform-total')).toBe('4');
    expect(page1.headers.get('x-platform-totalpages')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    const page2 = await guest.get(`${CATEGORIES}?parent=${root.id}&per_page=3&page=2`);
    expect(names(page2.body)).toEqual(['Tents']);
    expect(page2.headers.get('link')).toContain('rel="prev"');
    const desc = await guest.get(`${CATEGORIES}?parent=${root.id}&orderby=name&order=desc&per_page=1`);
    expect(names(desc.body)).toEqual(['Tents']);
  });

  it('counts published products, hides empty terms on request and filters by product', async () => {
    const nonEmpty = await guest.get(`${CATEGORIES}?hide_empty=true&parent=${root.id}`);
    expect(nonEmpty.body).toEqual([expect.objectContaining({ name: 'Boots', count: 1 })]);
    expect(names((await guest.get(`${CATEGORIES}?post=${productId}`)).body)).toEqual(['Boots']);
    expect((await guest.get(`${TAGS}?post=${productId}`)).body).toEqual([]);
  });

  it('filters by search, slug, include and exclude', async () => {
    expect(names((await guest.get(`${CATEGORIES}?search=STOV`)).body)).toEqual(['Stoves']);
    expect(names((await guest.get(`${CATEGORIES}?slug=tents,backpacks`)).body)).toEqual(['Backpacks', 'Tents']);
    const all = (await guest.get(`${CATEGORIES}?parent=${root.id}&orderby=id`)).body.map((t: { id: number }) => t.id);
    const included = await guest.get(`${CATEGORIES}?include=${all[2]},${all[0]}&orderby=include`);
    expect(included.body.map((t: { id: number }) => t.id)).toEqual([all[2], all[0]]);
    const excluded = await guest.get(`${CATEGORIES}?parent=${root.id}&exclude[]=${all[0]}`);
    expect(excluded.body.map((t: { id: number }) => t.id)).not.toContain(all[0]);
    const sqlish = await guest.get(`${TAGS}?search=${encodeURIComponent("' or '1'='1")}`);
    expect([sqlish.status, sqlish.body]).toEqual([200, []]);
  });

  it('validates collection params with 400 rest_invalid_param', async () => {
    const bad = [
      'per_page=0',
      'per_page=101',
      'page=0',
      'orderby=popularity',
      'order=sideways',
      'hide_empty=perhaps',
      'parent=-1',
      'post=0',
      `post=${2 ** 31}`,
      `search=${'y'.repeat(201)}`,
      `include=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`,
      'context=full',
    ];
    const outcomes = [];
    for (const query of bad) outcomes.push(outcome(query, await guest.get(`${CATEGORIES}?${query}`)));
    expect(outcomes).toEqual(bad.map((query) => [query, 400, 'rest_invalid_param', 400]));
  });
});

describe('OPTIONS', () => {
  it('describes each taxonomy and its term schema', async () => {
    const categories = await guest.options(CATEGORIES);
    expect(categories.status).toBe(200);
    expect(categories.body).toMatchObject({ namespace: 'shop/v1', methods: expect.arrayContaining(['GET', 'POST']) });
    const list = categories.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(Object.keys(list.args)).toEqual(expect.arrayContaining(['hide_empty', 'parent', 'post', 'slug', 'per_page']));
    const create = categories.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(create.args.name.required).toBe(true);
    expect(categories.body.schema.properties).toHaveProperty('parent');
    const tags = await guest.options(TAGS);
    expect(tags.body.schema.properties).not.toHaveProperty('parent');
    const tagList = tags.body.endpoints.find((e: { methods: string[] }) => e.methods.includes('GET'));
    expect(tagList.args).not.toHaveProperty('parent');
  });
});
