import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { customersService } from '@storefront/customers';
import { bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import { customers } from '@storefront/proto/customers';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { createSimpleProduct, customer, failure, guest, manager, startCatalog, type CatalogClients } from './support';

let customersSvc: TestService;
let customersChannel: Channel;
let c: CatalogClients;
let customerId: number;
let productId: number;
let priceId: number;

const fields = (f: Partial<catalog.CouponFields>) => catalog.CouponFields.fromPartial(f);
const create = (f: Partial<catalog.CouponFields>) =>
  c.coupons.createCoupon({ fields: fields(f) }, manager).then((r) => r.coupon!);
const list = (q: Partial<catalog.CollectionQuery>, caller = manager) =>
  c.coupons.listCoupons({ query: catalog.CollectionQuery.fromPartial(q) }, caller);

beforeAll(async () => {
  customersSvc = await startTestService(customersService, {
    env: { SHOP_ADMIN_PASSWORD: 'admin-password-1', SCRYPT_COST: '1024' },
  });
  customersChannel = openChannel('customers', customersSvc.address);
  const admin = bindClient(customersChannel, customers.CustomerServiceService);
  const created = await admin.createCustomer(
    customers.CreateCustomerRequest.fromPartial({ email: 'ann@example.com', username: 'ann', password: 'password-1' }),
    manager,
  );
  customerId = created.customer!.id;
  c = await startCatalog({ env: { CUSTOMERS_GRPC_ADDR: customersSvc.address } });
  const product = await createSimpleProduct(c, { title: 'Couponable' });
  productId = product.id;
  priceId = product.prices[0].id;
});

afterAll(async () => {
  await c.stop();
  customersChannel.close();
  await customersSvc.stop();
});

describe('coupons', () => {
  it('creates a coupon with its meta fields and valid references', async () => {
    const coupon = await create({
      title: 'SUMMER10',
      status: 'publish',
      discountType: 'percent',
      amount: '10',
      usageLimit: 100,
      allowedProductIds: { ids: [productId] },
      allowedPriceIds: { ids: [priceId] },
      allowedCustomerIds: { ids: [customerId] },
      minimumAmount: '20',
      expiryDate: '2031-12-31',
      freeShipping: true,
      meta: { campaign: 'summer' },
    });
    expect(coupon).toMatchObject({
      title: 'SUMMER10',
      slug: 'summer10',
      status: 'publish',
      discountType: 'percent',
      amount: '10.00',
      usageLimit: 100,
      usageLimitPerUser: undefined,
      usageCount: 0,
      allowedProductIds: [productId],
      allowedPriceIds: [priceId],
      allowedCustomerIds: [customerId],
      minimumAmount: '20.00',
      maximumAmount: undefined,
      expiryDate: '2031-12-31',
      freeShipping: true,
      meta: { campaign: 'summer' },
    });
    // Read back through both the entity manager and the raw list query.
    expect((await c.coupons.getCoupon({ id: coupon.id, context: 'edit' }, manager)).coupon!.expiryDate).toBe(
      '2031-12-31',
    );
    expect((await list({ search: 'SUMMER10' })).coupons[0].expiryDate).toBe('2031-12-31');
    expect((await c.coupons.findCouponByCode({ code: 'summer10', customerId: 0, email: '' }, guest)).coupon!.minimumAmount).toBe('20.00');
  });

  it('refuses references to missing products, prices and customers, naming them, and persists nothing', async () => {
    const err = await c.coupons
      .createCoupon(
        {
          fields: fields({
            title: 'BROKEN',
            allowedProductIds: { ids: [productId, 99991] },
            allowedPriceIds: { ids: [99992] },
            allowedCustomerIds: { ids: [customerId, 99993] },
          }),
        },
        manager,
      )
      .catch((e) => e);
    expect([err.code, err.status]).toEqual(['shop_coupon_invalid_reference', 422]);
    expect(err.data).toEqual({ product_ids: [99991], price_ids: [99992], customer_ids: [99993] });
    expect(err.message).toContain('99993');
    expect((await list({ search: 'BROKEN', status: ['any'] })).total).toBe(0);
  });

  it('keeps codes unique regardless of case, except in the trash', async () => {
    const first = await create({ title: 'Welcome' });
    expect(await failure(create({ title: 'WELCOME' }))).toEqual(['shop_coupon_code_exists', 409]);
    const other = await create({ title: 'Other' });
    expect(
      await failure(c.coupons.updateCoupon({ id: other.id, fields: fields({ title: 'welcome' }) }, manager)),
    ).toEqual(['shop_coupon_code_exists', 409]);
    await c.coupons.deleteCoupon({ id: first.id, force: false }, manager);
    expect((await create({ title: 'welcome' })).title).toBe('welcome');
    expect(
      await failure(c.coupons.updateCoupon({ id: first.id, fields: fields({ status: 'draft' }) }, manager)),
    ).toEqual(['shop_coupon_code_exists', 409]);
  });

  it('lets only one of two concurrent creations of a code win', async () => {
    const results = await Promise.allSettled([create({ title: 'RACE' }), create({ title: 'race' })]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect([lost.reason.code, lost.reason.status]).toEqual(['shop_coupon_code_exists', 409]);
  });

  it('validates codes and fields', async () => {
    expect(await failure(create({ title: '   ' }))).toEqual(['rest_invalid_param', 400]);
    expect(await failure(create({}))).toEqual(['rest_invalid_param', 400]);
    for (const bad of [
      { discountType: 'free_money' },
      { discountType: 'percent', amount: '150' },
      { amount: '-5' },
      { expiryDate: '2031-02-30' },
      { expiryDate: 'tomorrow' },
      { minimumAmount: '50', maximumAmount: '10' },
      { discountType: 'bogo', bogoBuyQuantity: 0, bogoGetQuantity: 1 },
      { usageLimit: -1 },
      { allowedProductIds: { ids: [0] } },
    ]) {
      expect(await failure(create({ title: 'CHECK', ...bad }))).toEqual(['rest_invalid_param', 400]);
    }
    const bogo = await create({ title: 'BOGO', discountType: 'bogo', bogoBuyQuantity: 2, bogoGetQuantity: 1 });
    expect([bogo.bogoBuyQuantity, bogo.bogoGetQuantity]).toEqual([2, 1]);
  });

  it('patches only the fields sent', async () => {
    const coupon = await create({
      title: 'PATCHME',
      amount: '5',
      allowedProductIds: { ids: [productId] },
      usageLimit: 3,
    });
    const updated = (
      await c.coupons.updateCoupon({ id: coupon.id, fields: fields({ amount: '7.5', usageLimit: 0 }) }, manager)
    ).coupon!;
    expect(updated).toMatchObject({
      amount: '7.50',
      usageLimit: undefined,
      allowedProductIds: [productId],
      title: 'PATCHME',
    });
    const cleared = (
      await c.coupons.updateCoupon({ id: coupon.id, fields: fields({ allowedProductIds: { ids: [] } }) }, manager)
    ).coupon!;
    expect(cleared.allowedProductIds).toEqual([]);
  });

  it('keeps coupons away from callers without coupon capabilities', async () => {
    const coupon = await create({ title: 'SECRET', status: 'publish' });
    expect(await failure(list({}, guest))).toEqual(['rest_cannot_read', 401]);
    expect(await failure(list({}, customer))).toEqual(['rest_cannot_read', 403]);
    expect(await failure(c.coupons.getCoupon({ id: coupon.id, context: 'view' }, customer))).toEqual([
      'rest_forbidden',
      403,
    ]);
    expect(await failure(c.coupons.createCoupon({ fields: fields({ title: 'X' }) }, customer))).toEqual([
      'rest_cannot_create',
      403,
    ]);
    expect(await failure(c.coupons.deleteCoupon({ id: coupon.id, force: true }, customer))).toEqual([
      'rest_cannot_delete',
      403,
    ]);
    expect(await failure(c.coupons.getCoupon({ id: 777777, context: 'view' }, manager))).toEqual([
      'rest_post_invalid_id',
      404,
    ]);
  });

  it('lists, trashes and deletes like posts', async () => {
    const coupon = await create({ title: 'LISTED', status: 'publish' });
    const found = await list({ search: 'listed' });
    expect(found.coupons.map((x) => x.id)).toEqual([coupon.id]);
    expect(await failure(list({ page: 5, search: 'listed' }))).toEqual(['rest_post_invalid_page_number', 400]);
    const trashed = await c.coupons.deleteCoupon({ id: coupon.id, force: false }, manager);
    expect([trashed.deleted, trashed.coupon!.status]).toEqual([false, 'trash']);
    expect(await failure(c.coupons.deleteCoupon({ id: coupon.id, force: false }, manager))).toEqual([
      'rest_already_trashed',
      410,
    ]);
    const gone = await c.coupons.deleteCoupon({ id: coupon.id, force: true }, manager);
    expect([gone.deleted, gone.coupon!.title]).toEqual([true, 'LISTED']);
  });

  it('finds a published coupon by code for the cart', async () => {
    await create({ title: 'CartCode', status: 'publish', amount: '3' });
    await create({ title: 'DraftCode' });
    expect((await c.coupons.findCouponByCode({ code: ' cartcode ', customerId: 0, email: '' }, guest)).coupon?.title).toBe('CartCode');
    expect((await c.coupons.findCouponByCode({ code: 'DRAFTCODE', customerId: 0, email: '' }, guest)).coupon).toBeUndefined();
    expect((await c.coupons.findCouponByCode({ code: '', customerId: 0, email: '' }, guest)).coupon).toBeUndefined();
  });
});
