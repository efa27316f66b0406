import { invalidParams } from '@storefront/errors';
import { parseDecimal } from '@storefront/money';
import type { Coupon, JsonObject } from '../../persistence/entities';
import { optionalAmount, requireAmount } from '../shared/amounts';
import { parseIdList } from '../posts/collection-query';
import { isId, MAX_ID } from '../shared/ids';
import { requireWritableStatus, type PostStatus } from '../posts/post-status';
import { limitText } from '../products/product-input';

// The coupon's registered meta fields (contract "Records the spec leaves
// open") as the domain receives them, and their checks.

export interface CouponInput {
  title?: string;
  content?: string;
  excerpt?: string;
  status?: string;
  author?: number;
  discountType?: string;
  amount?: string;
  usageLimit?: number;
  usageLimitPerUser?: number;
  allowedProductIds?: number[];
  allowedPriceIds?: number[];
  allowedCustomerIds?: number[];
  excludedProductIds?: number[];
  minimumAmount?: string;
  maximumAmount?: string;
  expiryDate?: string;
  individualUse?: boolean;
  freeShipping?: boolean;
  bogoBuyQuantity?: number;
  bogoGetQuantity?: number;
  meta?: JsonObject;
}

export const DISCOUNT_TYPES = ['percent', 'fixed_cart', 'fixed_product', 'bogo'] as const;

/** Entity columns a write sets (only those present in the input). */
export type CouponScalars = Partial<
  Pick<
    Coupon,
    | 'title'
    | 'content'
    | 'excerpt'
    | 'authorId'
    | 'discountType'
    | 'amount'
    | 'usageLimit'
    | 'usageLimitPerUser'
    | 'allowedProductIds'
    | 'allowedPriceIds'
    | 'allowedCustomerIds'
    | 'excludedProductIds'
    | 'minimumAmount'
    | 'maximumAmount'
    | 'expiryDate'
    | 'individualUse'
    | 'freeShipping'
    | 'bogoBuyQuantity'
    | 'bogoGetQuantity'
  >
> & { status?: PostStatus };

export function parseCode(title: string): string {
  const code = title.trim();
  if (!code) throw invalidParams({ title: 'The coupon code (title) cannot be empty.' });
  if (/\p{Cc}/u.test(code)) {
    throw invalidParams({ title: 'The coupon code cannot hold control characters.' });
  }
  return limitText('title', code, 200);
}

/** 0 means unlimited (stored as null). */
function parseLimit(field: string, value: number): number | null {
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_ID) {
    throw invalidParams({ [field]: `${field} must be 0 (unlimited) or more.` });
  }
  return value || null;
}

function parseQuantity(field: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0 || value > 1000) {
    throw invalidParams({ [field]: `${field} must be between 0 and 1000.` });
  }
  return value;
}

/** YYYY-MM-DD naming a real day; "" clears. */
export function parseExpiryDate(value: string): string | null {
  if (!value.trim()) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const date = match ? new Date(Date.UTC(+match[1], +match[2] - 1, +match[3])) : null;
  if (!date || date.toISOString().slice(0, 10) !== value.trim()) {
    throw invalidParams({ expiry_date: 'expiry_date must be a date as YYYY-MM-DD.' });
  }
  return value.trim();
}

function parseDiscountType(value: string, bogoAddon: boolean): string {
  if (!(DISCOUNT_TYPES as readonly string[]).includes(value)) {
    throw invalidParams({ discount_type: `discount_type must be one of ${DISCOUNT_TYPES.join(', ')}.` });
  }
  if (value === 'bogo' && !bogoAddon) throw invalidParams({ discount_type: 'bogo coupons need the bogo addon.' });
  return value;
}

export function parseCouponScalars(input: CouponInput, bogoAddon: boolean): CouponScalars {
  const out: CouponScalars = {};
  const ids = (field: string, list: number[] | undefined) =>
    list === undefined ? undefined : parseIdList(field, list);
  if (input.title !== undefined) out.title = parseCode(input.title);
  if (input.content !== undefined) out.content = limitText('content', input.content, 100_000);
  if (input.excerpt !== undefined) out.excerpt = limitText('excerpt', input.excerpt, 10_000);
  if (input.status !== undefined) out.status = requireWritableStatus(input.status);
  if (input.author !== undefined && input.author !== 0) {
    if (!isId(input.author)) throw invalidParams({ author: 'author must be a user id.' });
    out.authorId = input.author;
  }
  if (input.discountType !== undefined) out.discountType = parseDiscountType(input.discountType, bogoAddon);
  if (input.amount !== undefined) out.amount = requireAmount('amount', input.amount || '0');
  if (input.usageLimit !== undefined) out.usageLimit = parseLimit('usage_limit', input.usageLimit);
  if (input.usageLimitPerUser !== undefined) {
    out.usageLimitPerUser = parseLimit('usage_limit_per_user', input.usageLimitPerUser);
  }
  out.allowedProductIds = ids('allowed_product_ids', input.allowedProductIds);
  out.allowedPriceIds = ids('allowed_price_ids', input.allowedPriceIds);
  out.allowedCustomerIds = ids('allowed_customer_ids', input.allowedCustomerIds);
  out.excludedProductIds = ids('excluded_product_ids', input.excludedProductIds);
  if (input.minimumAmount !== undefined) out.minimumAmount = optionalAmount('minimum_amount', input.minimumAmount);
  if (input.maximumAmount !== undefined) out.maximumAmount = optionalAmount('maximum_amount', input.maximumAmount);
  if (input.expiryDate !== undefined) out.expiryDate = parseExpiryDate(input.expiryDate);
  if (input.individualUse !== undefined) out.individualUse = input.individualUse;
  if (input.freeShipping !== undefined) out.freeShipping = input.freeShipping;
  if (input.bogoBuyQuantity !== undefined) {
    out.bogoBuyQuantity = parseQuantity('bogo_buy_quantity', input.bogoBuyQuantity);
  }
  if (input.bogoGetQuantity !== undefined) {
    out.bogoGetQuantity = parseQuantity('bogo_get_quantity', input.bogoGetQuantity);
  }
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as CouponScalars;
}

/** Rules across fields, checked on the coupon as it will be saved. */
export function assertCouponConsistent(coupon: Coupon): void {
  if (coupon.discountType === 'percent' && parseDecimal(coupon.amount, 2) > 10000n) {
    throw invalidParams({ amount: 'A percent discount cannot exceed 100.' });
  }
  if (
    coupon.minimumAmount &&
    coupon.maximumAmount &&
    parseDecimal(coupon.minimumAmount, 2) > parseDecimal(coupon.maximumAmount, 2)
  ) {
    throw invalidParams({ minimum_amount: 'minimum_amount cannot exceed maximum_amount.' });
  }
  if (coupon.discountType === 'bogo' && (coupon.bogoBuyQuantity < 1 || coupon.bogoGetQuantity < 1)) {
    throw invalidParams({
      bogo_buy_quantity: 'bogo coupons need bogo_buy_quantity and bogo_get_quantity of 1 or more.',
    });
  }
}
