import { Type } from 'typebox';
import type { cart } from '@storefront/proto/cart';

const num = (v: string | undefined) => Number(v || 0);

export const CartLineSchema = Type.Object(
  {
    item_key: Type.String({ description: 'Identifies the line (stable for a price and variation).' }),
    product_id: Type.Integer(),
    price_id: Type.Integer(),
    name: Type.String(),
    image: Type.String({ description: 'Image URL, or "".' }),
    quantity: Type.Integer(),
    price: Type.Number({ description: 'Unit price.' }),
    subtotal: Type.Number({ description: 'price x quantity, before discounts.' }),
    variation_id: Type.Integer({ description: '0 when none.' }),
    coupon_discount: Type.Number(),
    bogo_free_units: Type.Integer(),
    bogo_coupon: Type.String({ description: '"" when none.' }),
  },
  { title: 'CartLine' },
);

export const TotalsSchema = Type.Object(
  { subtotal: Type.Number(), shipping: Type.Number(), tax: Type.Number(), discount: Type.Number(), total: Type.Number() },
  { title: 'CartTotals' },
);

export const AppliedCouponSchema = Type.Object({ code: Type.String(), discount: Type.Number() }, { title: 'AppliedCoupon' });

export const CartSnapshotSchema = Type.Object(
  {
    items: Type.Array(CartLineSchema),
    totals: TotalsSchema,
    currency: Type.String({ description: 'ISO 4217 code.' }),
    needs_shipping: Type.Boolean(),
    needs_payment: Type.Boolean(),
    applied_coupons: Type.Array(AppliedCouponSchema),
    item_count: Type.Integer({ description: 'Sum of line quantities.' }),
  },
  { title: 'CartSnapshot' },
);

export function lineResource(l: cart.CartLine) {
  return {
    item_key: l.itemKey,
    product_id: l.productId,
    price_id: l.priceId,
    name: l.name,
    image: l.image,
    quantity: l.quantity,
    price: num(l.price),
    subtotal: num(l.subtotal),
    variation_id: l.variationId,
    coupon_discount: num(l.couponDiscount),
    bogo_free_units: l.bogoFreeUnits,
    bogo_coupon: l.bogoCoupon,
  };
}

export function totalsResource(t: cart.CartTotals | undefined) {
  return { subtotal: num(t?.subtotal), shipping: num(t?.shipping), tax: num(t?.tax), discount: num(t?.discount), total: num(t?.total) };
}

export function snapshotResource(s: cart.CartSnapshot | undefined) {
  return {
    items: (s?.items ?? []).map(lineResource),
    totals: totalsResource(s?.totals),
    currency: s?.currency ?? '',
    needs_shipping: s?.needsShipping ?? false,
    needs_payment: s?.needsPayment ?? false,
    applied_coupons: (s?.appliedCoupons ?? []).map((c) => ({ code: c.code, discount: num(c.discount) })),
    item_count: s?.itemCount ?? 0,
  };
}
