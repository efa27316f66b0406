import { fromMinor, parseDecimal } from '@storefront/money';
import type { CouponRecord } from '../ports';
import { lineEligible } from '../pricing/discounts';

export interface CouponCartView {
  customerId: number;
  /** Sum of line subtotals, minor units. */
  subtotal: number;
  lines: { productId: number; priceId: number }[];
  decimals: number;
  today: string;
}

/** Why this coupon cannot be used on this cart (the contract's shop_coupon_invalid message), or undefined. */
export function couponProblem(coupon: CouponRecord, cart: CouponCartView): string | undefined {
  const code = coupon.code;
  if (coupon.expiryDate && coupon.expiryDate < cart.today) return `Coupon "${code}" has expired.`;
  if (coupon.usageLimit && coupon.usageCount >= coupon.usageLimit) return `Coupon "${code}" has reached its usage limit.`;
  if (coupon.usageLimitPerUser && coupon.holderUses >= coupon.usageLimitPerUser) return `Coupon "${code}" has reached its usage limit for you.`;
  if (coupon.allowedCustomerIds.length && !coupon.allowedCustomerIds.includes(cart.customerId)) {
    return `Coupon "${code}" is not available to you.`;
  }
  if (!cart.lines.length) return `Coupon "${code}" cannot be applied to an empty cart.`;
  const min = minor(coupon.minimumAmount, cart.decimals);
  if (min !== undefined && cart.subtotal < min) return `The minimum spend for coupon "${code}" is ${fromMinor(min, cart.decimals)}.`;
  const max = minor(coupon.maximumAmount, cart.decimals);
  if (max !== undefined && max > 0 && cart.subtotal > max) return `The maximum spend for coupon "${code}" is ${fromMinor(max, cart.decimals)}.`;
  const restricted = coupon.allowedProductIds.length || coupon.allowedPriceIds.length || coupon.excludedProductIds.length;
  if (restricted && !cart.lines.some((l) => lineEligible(coupon, l))) {
    return `Coupon "${code}" does not apply to the items in your cart.`;
  }
  return undefined;
}

function minor(value: string | undefined, decimals: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    return Number(parseDecimal(value, decimals));
  } catch {
    return undefined;
  }
}
