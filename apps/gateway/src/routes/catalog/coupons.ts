import { Type, type Static } from 'typebox';
import { badRequest } from '@storefront/errors';
import type { catalog } from '@storefront/proto/catalog';
import type { RouteModule } from '../../context';
import { collectionQuery, postCollectionParams } from '../../resources/catalog/collection-params';
import { couponResource, CouponSchema } from '../../resources/catalog/coupon';
import { CouponCreateBody, couponFields, CouponUpdateBody, type CouponWrite } from '../../resources/catalog/coupon-input';
import { registerContentType } from './content-controller';

// Coupons take the collection parameters of products minus the taxonomy
// filters and `slug` (a coupon's slug is only its code).
const ListQuery = Type.Object(postCollectionParams);

/**
 * `shop_coupon` (spec 4.7). Even published coupons need read_shop_coupon
 * (the catalog's decision: a public list of codes would be free discounts).
 */
export const couponRoutes: RouteModule = (app, ctx) => {
  const coupons = ctx.clients.catalog?.coupon;
  if (!coupons) return;

  registerContentType<catalog.Coupon, Static<typeof ListQuery>, CouponWrite, CouponWrite>(
    app,
    ctx,
    {
      path: '/shop_coupon',
      itemSchema: CouponSchema,
      noun: 'Coupon',
      listQuery: ListQuery,
      createBody: CouponCreateBody,
      updateBody: CouponUpdateBody,
      existingItemError: () => badRequest('rest_post_exists', 'Cannot create existing post.'),
      async list(q, request) {
        const result = await coupons.listCoupons({ query: collectionQuery(q) }, request.caller);
        return { items: result.coupons, total: result.total };
      },
      async get(id, context, request) {
        return (await coupons.getCoupon({ id, context }, request.caller)).coupon!;
      },
      async create(body, request) {
        return (await coupons.createCoupon({ fields: couponFields(body) }, request.caller)).coupon!;
      },
      async update(id, body, request) {
        return (await coupons.updateCoupon({ id, fields: couponFields(body) }, request.caller)).coupon!;
      },
      async delete(id, force, request) {
        const { coupon, deleted } = await coupons.deleteCoupon({ id, force }, request.caller);
        return { item: coupon!, deleted };
      },
      present: couponResource,
    },
  );
};
