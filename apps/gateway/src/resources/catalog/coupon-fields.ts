import { Type } from 'typebox';
import type { catalog } from '@storefront/proto/catalog';
import { Nullable } from '../../http/schemas';
import { amountOrNull } from './decimal-amount';
import { IdArray, Int4, Money, OptionalMoney } from './write-values';

// The coupon's registered meta fields (contract "Coupon meta fields"): how
// they read, how they are written, and which meta keys they claim.

const DiscountType = Type.Union(['percent', 'fixed_cart', 'fixed_product', 'bogo'].map((t) => Type.Literal(t)), {
  description: 'bogo needs the bogo addon.',
});
const NullableInteger = (description: string) => Type.Union([Type.Integer(), Type.Null()], { description });
const NullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** How the coupon fields read (inside `meta`). */
export const couponFieldsRead = {
  discount_type: DiscountType,
  amount: Type.Number({ description: 'Discount; a percentage for percent.' }),
  usage_limit: NullableInteger('Uses in total; null: unlimited.'),
  usage_limit_per_user: NullableInteger('Uses per customer; null: unlimited.'),
  usage_count: Type.Integer({ readOnly: true, description: 'Times used (read-only).' }),
  allowed_product_ids: Type.Array(Type.Integer()),
  allowed_price_ids: Type.Array(Type.Integer()),
  allowed_customer_ids: Type.Array(Type.Integer()),
  excluded_product_ids: Type.Array(Type.Integer()),
  minimum_amount: NullableNumber('Minimum cart subtotal; null: none.'),
  maximum_amount: NullableNumber('Maximum cart subtotal; null: none.'),
  expiry_date: Type.Union([Type.String(), Type.Null()], { description: 'YYYY-MM-DD (last valid day); null: never.' }),
  individual_use: Type.Boolean({ description: 'Cannot be combined with other coupons.' }),
  free_shipping: Type.Boolean(),
  bogo_buy_quantity: Type.Integer(),
  bogo_get_quantity: Type.Integer(),
};

/** How the coupon fields are written (inside `meta`, or at the top level). Every one optional: absent means unchanged. */
export const couponFieldsWrite = {
  discount_type: Type.Optional(DiscountType),
  amount: Type.Optional(Money('Discount; a percentage (up to 100) for percent.')),
  usage_limit: Type.Optional(Nullable(Int4('0 or null: unlimited.', 0))),
  usage_limit_per_user: Type.Optional(Nullable(Int4('0 or null: unlimited.', 0))),
  usage_count: Type.Optional(Type.Unknown({ readOnly: true, description: 'Read-only: ignored on write.' })),
  allowed_product_ids: Type.Optional(IdArray('Products the coupon applies to (must exist); empty: all.')),
  allowed_price_ids: Type.Optional(IdArray('Prices the coupon applies to (must exist); empty: all.')),
  allowed_customer_ids: Type.Optional(IdArray('Customers who may use it (must exist); empty: everyone.')),
  excluded_product_ids: Type.Optional(IdArray('Products it never applies to (must exist).')),
  minimum_amount: Type.Optional(OptionalMoney('Minimum cart subtotal.')),
  maximum_amount: Type.Optional(OptionalMoney('Maximum cart subtotal.')),
  expiry_date: Type.Optional(
    Type.Union([Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' }), Type.Null()], {
      description: 'YYYY-MM-DD; null or "": never expires.',
    }),
  ),
  individual_use: Type.Optional(Type.Boolean()),
  free_shipping: Type.Optional(Type.Boolean()),
  bogo_buy_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  bogo_get_quantity: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
};

/** Meta keys that are coupon fields rather than custom meta. */
export const COUPON_FIELD_NAMES: ReadonlySet<string> = new Set(Object.keys(couponFieldsRead));

/** The coupon fields of a coupon, as REST shows them. */
export function couponFieldValues(c: catalog.Coupon) {
  return {
    discount_type: c.discountType,
    amount: amountOrNull(c.amount) ?? 0,
    usage_limit: c.usageLimit ?? null,
    usage_limit_per_user: c.usageLimitPerUser ?? null,
    usage_count: c.usageCount,
    allowed_product_ids: c.allowedProductIds,
    allowed_price_ids: c.allowedPriceIds,
    allowed_customer_ids: c.allowedCustomerIds,
    excluded_product_ids: c.excludedProductIds,
    minimum_amount: amountOrNull(c.minimumAmount),
    maximum_amount: amountOrNull(c.maximumAmount),
    expiry_date: c.expiryDate ?? null,
    individual_use: c.individualUse,
    free_shipping: c.freeShipping,
    bogo_buy_quantity: c.bogoBuyQuantity,
    bogo_get_quantity: c.bogoGetQuantity,
  };
}
