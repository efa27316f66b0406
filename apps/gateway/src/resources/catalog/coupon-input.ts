import { Type, type Static } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { COUPON_FIELD_NAMES, couponFieldsWrite } from './coupon-fields';
import { decimalText, Int4, RawText, rawText } from './write-values';

// Coupon writes. The spec sets coupon attributes "through registered meta
// fields", so `meta` is their home; the same fields are also accepted at the
// top level for convenience, and when both carry a field, `meta` wins. Other
// meta keys are custom fields (merged; null removes one).

const CouponMeta = Type.Object(couponFieldsWrite, {
  additionalProperties: true,
  description: 'Coupon fields (see the item schema) plus custom keys.',
});

const couponWritable = {
  title: RawText(200, 'The coupon code (case-insensitive, unique among untrashed coupons). Required on create.'),
  content: RawText(100_000, 'Description.'),
  excerpt: RawText(10_000, 'Short description.'),
  status: Type.Union(['publish', 'draft', 'pending', 'private'].map((s) => Type.Literal(s)), {
    description: 'Default on create: draft.',
  }),
  author: Int4('User id; 0 or absent on create: the caller.', 0),
  meta: CouponMeta,
  ...couponFieldsWrite,
};

export const CouponUpdateBody = Type.Partial(Type.Object(couponWritable), { additionalProperties: false });

export const CouponCreateBody = Type.Partial(
  Type.Object({ ...couponWritable, id: Type.Unknown({ description: 'Not allowed: coupons are created without an id.' }) }),
  { additionalProperties: false },
);

export type CouponWrite = Static<typeof CouponUpdateBody>;
type CouponFieldValues = Static<typeof CouponMeta>;

const pick = (source: Record<string, unknown>, keep: (key: string) => boolean) =>
  Object.fromEntries(Object.entries(source).filter(([key]) => keep(key)));

const money = (value: number | string | null | undefined) =>
  value === undefined ? undefined : value === null ? '' : decimalText(value);
const ids = (list: number[] | undefined) => (list ? { ids: list } : undefined);
// null and 0 both mean "unlimited" (the proto's 0 clears the limit).
const limit = (value: number | null | undefined) => (value === null ? 0 : value);

/** REST body -> proto patch. */
export function couponFields(body: CouponWrite): catalog.CouponFields {
  const meta = (body.meta ?? {}) as Record<string, unknown>;
  const custom = pick(meta, (key) => !COUPON_FIELD_NAMES.has(key));
  const f = {
    ...pick(body, (key) => COUPON_FIELD_NAMES.has(key)),
    ...pick(meta, (key) => COUPON_FIELD_NAMES.has(key)),
  } as CouponFieldValues;
  return {
    title: rawText(body.title),
    content: rawText(body.content),
    excerpt: rawText(body.excerpt),
    status: body.status,
    author: body.author,
    discountType: f.discount_type,
    amount: money(f.amount),
    usageLimit: limit(f.usage_limit),
    usageLimitPerUser: limit(f.usage_limit_per_user),
    allowedProductIds: ids(f.allowed_product_ids),
    allowedPriceIds: ids(f.allowed_price_ids),
    allowedCustomerIds: ids(f.allowed_customer_ids),
    excludedProductIds: ids(f.excluded_product_ids),
    minimumAmount: money(f.minimum_amount),
    maximumAmount: money(f.maximum_amount),
    expiryDate: f.expiry_date === null ? '' : f.expiry_date,
    individualUse: f.individual_use,
    freeShipping: f.free_shipping,
    bogoBuyQuantity: f.bogo_buy_quantity,
    bogoGetQuantity: f.bogo_get_quantity,
    meta: Object.keys(custom).length ? custom : undefined,
  };
}
