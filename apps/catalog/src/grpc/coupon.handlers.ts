import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';
import { fromCouponFields, toProtoCoupon } from './coupon.mappers';

export function couponHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.CouponServiceService> {
  const { coupons } = domain;
  return {
    async listCoupons(req, caller) {
      const result = await coupons.list(caller, req.query);
      return { coupons: result.coupons.map(toProtoCoupon), total: result.total, totalPages: result.totalPages };
    },
    async getCoupon(req, caller) {
      return { coupon: toProtoCoupon(await coupons.get(caller, req.id, req.context)) };
    },
    async createCoupon(req, caller) {
      return { coupon: toProtoCoupon(await coupons.create(caller, fromCouponFields(req.fields))) };
    },
    async updateCoupon(req, caller) {
      return { coupon: toProtoCoupon(await coupons.update(caller, req.id, fromCouponFields(req.fields))) };
    },
    async deleteCoupon(req, caller) {
      const { coupon, deleted } = await coupons.delete(caller, req.id, req.force);
      return { coupon: toProtoCoupon(coupon), deleted };
    },
    async findCouponByCode(req) {
      const { coupon, holderUses } = await coupons.findByCode(req.code, { customerId: req.customerId, email: req.email });
      return { coupon: coupon ? toProtoCoupon(coupon) : undefined, holderUses };
    },
    async redeemCoupons(req) {
      return domain.redemptions.redeem(req);
    },
    async releaseCoupons(req) {
      return { released: await domain.redemptions.release(req) };
    },
  };
}
