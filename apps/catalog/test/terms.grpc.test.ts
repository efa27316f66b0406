import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { catalog } from '@storefront/proto/catalog';
import { createSimpleProduct, customer, failure, guest, manager, startCatalog, type CatalogClients } from './support';

let c: CatalogClients;
const CATEGORY = 'shop_product_category';
const TAG = 'shop_product_tag';

beforeAll(async () => {
  c = await startCatalog();
});

afterAll(async () => {
  await c.stop();
});

const create = (taxonomy: string, fields: catalog.TermFields) =>
  c.terms.createTerm({ taxonomy, fields }, manager).then((r) => r.term!);
const list = (q: Partial<catalog.ListTermsRequest>, caller = guest) =>
  c.terms.listTerms(catalog.ListTermsRequest.fromPartial({ taxonomy: CATEGORY, ...q }), caller);

describe('terms', () => {
  it('creates categories with derived slugs, parents and meta', async () => {
    const home = await create(CATEGORY, {
      name: 'Home & Kitchen',
      description: 'All for the home',
      meta: { icon: 'house' },
    });
    expect(home).toMatchObject({
      taxonomy: CATEGORY,
      name: 'Home & Kitchen',
      slug: 'home-kitchen',
      parent: 0,
      count: 0,
      meta: { icon: 'house' },
    });
    const mugs = await create(CATEGORY, { name: 'Mugs', parent: home.id });
    expect(mugs.parent).toBe(home.id);
    const other = await create(CATEGORY, { name: 'Home Kitchen' });
    expect(other.slug).toBe('home-kitchen-2');
  });

  it('enforces names, slugs, parents and hierarchy', async () => {
    const shoes = await create(CATEGORY, { name: 'Shoes' });
    expect(await failure(c.terms.createTerm({ taxonomy: CATEGORY, fields: { name: 'shoes' } }, manager))).toEqual([
      'term_exists',
      400,
    ]);
    expect(
      await failure(c.terms.createTerm({ taxonomy: CATEGORY, fields: { name: 'Other', slug: 'shoes' } }, manager)),
    ).toEqual(['duplicate_term_slug', 400]);
    expect(
      await failure(c.terms.createTerm({ taxonomy: CATEGORY, fields: { name: 'Orphan', parent: 424242 } }, manager)),
    ).toEqual(['rest_term_invalid', 400]);
    expect(
      await failure(c.terms.createTerm({ taxonomy: TAG, fields: { name: 'child', parent: shoes.id } }, manager)),
    ).toEqual(['rest_taxonomy_not_hierarchical', 400]);
    expect(await failure(c.terms.createTerm({ taxonomy: CATEGORY, fields: { name: '  ' } }, manager))).toEqual([
      'rest_invalid_param',
      400,
    ]);
    expect(await failure(c.terms.createTerm({ taxonomy: CATEGORY, fields: {} }, manager))).toEqual([
      'rest_missing_callback_param',
      400,
    ]);
    expect(await failure(c.terms.createTerm({ taxonomy: 'post_tag', fields: { name: 'x' } }, manager))).toEqual([
      'rest_invalid_param',
      400,
    ]);
    const sneakers = await create(CATEGORY, { name: 'Sneakers', parent: shoes.id });
    expect(
      await failure(c.terms.updateTerm({ taxonomy: CATEGORY, id: shoes.id, fields: { parent: sneakers.id } }, manager)),
    ).toEqual(['rest_invalid_param', 400]);
  });

  it('updates and deletes only with force, moving children up', async () => {
    const parent = await create(CATEGORY, { name: 'Garden' });
    const child = await create(CATEGORY, { name: 'Tools', parent: parent.id });
    const updated = (
      await c.terms.updateTerm(
        { taxonomy: CATEGORY, id: parent.id, fields: { description: 'Outdoors', meta: { x: 1 } } },
        manager,
      )
    ).term!;
    expect(updated).toMatchObject({ name: 'Garden', description: 'Outdoors', meta: { x: 1 } });
    expect(await failure(c.terms.deleteTerm({ taxonomy: CATEGORY, id: parent.id, force: false }, manager))).toEqual([
      'rest_trash_not_supported',
      501,
    ]);
    const deleted = await c.terms.deleteTerm({ taxonomy: CATEGORY, id: parent.id, force: true }, manager);
    expect(deleted.previous!.name).toBe('Garden');
    expect((await c.terms.getTerm({ taxonomy: CATEGORY, id: child.id, context: 'view' }, guest)).term!.parent).toBe(0);
    expect(await failure(c.terms.getTerm({ taxonomy: CATEGORY, id: parent.id, context: 'view' }, guest))).toEqual([
      'rest_term_invalid',
      404,
    ]);
    expect(await failure(c.terms.getTerm({ taxonomy: TAG, id: child.id, context: 'view' }, guest))).toEqual([
      'rest_term_invalid',
      404,
    ]);
  });

  it('needs the term capabilities to write', async () => {
    const term = await create(TAG, { name: 'sale' });
    expect(await failure(c.terms.createTerm({ taxonomy: TAG, fields: { name: 'x' } }, guest))).toEqual([
      'rest_cannot_create',
      401,
    ]);
    expect(await failure(c.terms.createTerm({ taxonomy: TAG, fields: { name: 'x' } }, customer))).toEqual([
      'rest_cannot_create',
      403,
    ]);
    expect(await failure(c.terms.updateTerm({ taxonomy: TAG, id: term.id, fields: { name: 'y' } }, customer))).toEqual([
      'rest_cannot_update',
      403,
    ]);
    expect(await failure(c.terms.deleteTerm({ taxonomy: TAG, id: term.id, force: true }, customer))).toEqual([
      'rest_cannot_delete',
      403,
    ]);
    expect(await failure(c.terms.getTerm({ taxonomy: TAG, id: term.id, context: 'edit' }, customer))).toEqual([
      'rest_forbidden_context',
      403,
    ]);
    expect((await c.terms.getTerm({ taxonomy: TAG, id: term.id, context: 'edit' }, manager)).term!.name).toBe('sale');
  });

  it('lists with counts, hide_empty, parent, post, search, order and pagination', async () => {
    const lighting = await create(CATEGORY, { name: 'Lighting' });
    const lamps = await create(CATEGORY, { name: 'Lamps', parent: lighting.id });
    const product = await createSimpleProduct(c, {
      title: 'Desk lamp',
      shopProductCategory: { ids: [lighting.id, lamps.id] },
    });
    await createSimpleProduct(c, {
      title: 'Unpublished lamp',
      status: 'draft',
      shopProductCategory: { ids: [lighting.id] },
    });

    const nonEmpty = await list({ hideEmpty: true, perPage: 100 });
    expect(nonEmpty.terms.map((t) => [t.name, t.count])).toEqual([
      ['Lamps', 1],
      ['Lighting', 1],
    ]);
    expect((await list({ parent: lighting.id })).terms.map((t) => t.name)).toEqual(['Lamps']);
    expect((await list({ post: product.id })).terms.map((t) => t.id).sort()).toEqual([lighting.id, lamps.id].sort());
    expect((await list({ search: 'LIGHT' })).terms.map((t) => t.name)).toEqual(['Lighting']);
    const byCount = await list({ orderby: 'count', order: 'desc', perPage: 2 });
    expect(byCount.terms[0].count).toBe(1);
    expect(byCount.totalPages).toBe(Math.ceil(byCount.total / 2));
    const included = await list({ include: [lamps.id, lighting.id], orderby: 'include' });
    expect(included.terms.map((t) => t.id)).toEqual([lamps.id, lighting.id]);
    expect((await list({ slug: ['lamps'] })).terms.map((t) => t.id)).toEqual([lamps.id]);
    expect((await list({ exclude: [lamps.id], search: 'lamp' })).total).toBe(0);
    for (const search of ["' or 1=1 --", '%']) expect((await list({ search })).total).toBe(0);
  });

  it('rejects bad list parameters with 400', async () => {
    for (const q of [
      { perPage: 0 },
      { perPage: 101 },
      { orderby: 'random' },
      { include: Array.from({ length: 101 }, (_, i) => i + 1) },
      { parent: -1 },
      { taxonomy: '' },
    ]) {
      expect(await failure(list(q))).toEqual(['rest_invalid_param', 400]);
    }
    expect(await failure(list({ context: 'edit' }))).toEqual(['rest_forbidden_context', 401]);
  });
});
