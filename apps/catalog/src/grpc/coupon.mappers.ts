import type { catalog } from '@storefront/proto/catalog';
import type { CouponInput } from '../domain/coupons/coupon-input';
import type { Coupon } from '../persistence/entities';

export function toProtoCoupon(c: Coupon): catalog.Coupon {
  return {
    id: c.id,
    date: c.createdAt,
    modified: c.modifiedAt,
    slug: c.slug,
    status: c.status,
    title: c.title,
    content: c.content,
    excerpt: c.excerpt,
    author: c.authorId,
    discountType: c.discountType,
    amount: c.amount,
    usageLimit: c.usageLimit ?? undefined,
    usageLimitPerUser: c.usageLimitPerUser ?? undefined,
    usageCount: c.usageCount,
    allowedProductIds: c.allowedProductIds,
    allowedPriceIds: c.allowedPriceIds,
    allowedCustomerIds: c.allowedCustomerIds,
    excludedProductIds: c.excludedProductIds,
    minimumAmount: c.minimumAmount ?? undefined,
    maximumAmount: c.maximumAmount ?? undefined,
    expiryDate: c.expiryDate ?? undefined,
    individualUse: c.individualUse,
    freeShipping: c.freeShipping,
    bogoBuyQuantity: c.bogoBuyQuantity,
    bogoGetQuantity: c.bogoGetQuantity,
    meta: c.meta,
  };
}

export function fromCouponFields(f: catalog.CouponFields | undefined): CouponInput {
  if (!f) return {};
  return {
    ...f,
    allowedProductIds: f.allowedProductIds?.ids,
    allowedPriceIds: f.allowedPriceIds?.ids,
    allowedCustomerIds: f.allowedCustomerIds?.ids,
    excludedProductIds: f.excludedProductIds?.ids,
  };
}
