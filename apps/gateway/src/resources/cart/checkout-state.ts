import { Type } from 'typebox';
import type { cart } from '@storefront/proto/cart';
import { CartLineSchema, lineResource, snapshotResource, totalsResource, TotalsSchema, AppliedCouponSchema } from './snapshot';

const num = (v: string | undefined) => Number(v || 0);

export const ShippingRateSchema = Type.Object(
  { id: Type.String(), label: Type.String(), cost: Type.Number(), tax: Type.Number() },
  { title: 'CheckoutShippingRate' },
);

export const CheckoutStateSchema = Type.Object(
  {
    cart: Type.Object({
      items: Type.Array(CartLineSchema),
      needs_shipping: Type.Boolean(),
      needs_payment: Type.Boolean(),
      currency: Type.String(),
    }),
    totals: TotalsSchema,
    available_gateways: Type.Array(
      Type.Object({ id: Type.String(), title: Type.String(), publishable_key: Type.Optional(Type.String()) }),
    ),
    order_id: Type.Integer({ description: '0 when there is no draft order.' }),
    declared_items: Type.Array(Type.Object({}, { additionalProperties: true })),
    selection: Type.Array(Type.Object({}, { additionalProperties: true })),
    checkout_fields: Type.Array(
      Type.Object({
        key: Type.String(),
        label: Type.String(),
        type: Type.String(),
        required: Type.Boolean(),
        group: Type.String(),
        priority: Type.Integer(),
        autocomplete: Type.String(),
      }),
    ),
    branding: Type.Object({ logo_url: Type.String(), store_name: Type.String(), site_url: Type.String() }),
    applied_coupons: Type.Array(AppliedCouponSchema),
    shipping_rates: Type.Array(ShippingRateSchema),
    chosen_shipping_method: Type.String({ description: 'A rate id, "" when no rate applies.' }),
    place_order_label: Type.String(),
    consent_checkboxes: Type.Array(
      Type.Object({ id: Type.String(), label: Type.String(), required: Type.Boolean(), checked: Type.Boolean() }),
    ),
    fields: Type.Record(Type.String(), Type.String(), { description: 'Field values pushed so far.' }),
    currency: Type.String(),
  },
  { title: 'CheckoutState' },
);

export function shippingRatesResource(s: cart.CartSnapshot | undefined) {
  return (s?.shippingRates ?? []).map((r) => ({ id: r.id, label: r.label, cost: num(r.cost), tax: num(r.tax) }));
}

export function checkoutStateResource(state: cart.CheckoutState | undefined) {
  const s = state?.snapshot;
  const snap = snapshotResource(s);
  return {
    cart: { items: (s?.items ?? []).map(lineResource), needs_shipping: snap.needs_shipping, needs_payment: snap.needs_payment, currency: snap.currency },
    totals: totalsResource(s?.totals),
    available_gateways: (state?.availableGateways ?? []).map((g) => ({
      id: g.id,
      title: g.title,
      ...(g.publishableKey ? { publishable_key: g.publishableKey } : {}),
    })),
    order_id: state?.orderId ?? 0,
    declared_items: [],
    selection: [],
    checkout_fields: state?.checkoutFields ?? [],
    branding: {
      logo_url: state?.branding?.logoUrl ?? '',
      store_name: state?.branding?.storeName ?? '',
      site_url: state?.branding?.siteUrl ?? '',
    },
    applied_coupons: snap.applied_coupons,
    shipping_rates: shippingRatesResource(s),
    chosen_shipping_method: s?.chosenShippingMethod ?? '',
    place_order_label: state?.placeOrderLabel ?? 'Place order',
    consent_checkboxes: state?.consentCheckboxes ?? [],
    fields: state?.fields ?? {},
    currency: snap.currency,
  };
}

export const PaymentResultSchema = Type.Object(
  {
    result: Type.String({ description: 'success' }),
    redirect: Type.String({ description: 'Where the customer goes next (order received page, or the action step).' }),
    redirect_url: Type.String({ description: "The action step's URL when `requires_action` (e.g. test_card's authorize page); otherwise empty." }),
    order_id: Type.Integer(),
    order_key: Type.String(),
    status: Type.String({ description: 'Order status after the payment.' }),
    paid_status: Type.String(),
    payment_status: Type.String({ description: 'paid | on_hold | requires_action' }),
    requires_action: Type.Boolean(),
    intent_id: Type.String(),
    client_secret: Type.String(),
    transaction_id: Type.String(),
    message: Type.String(),
    payment_method: Type.String(),
    total: Type.Number(),
    currency: Type.String(),
  },
  { title: 'PaymentResult' },
);

export function paymentResultResource(r: cart.PaymentResult | undefined) {
  return {
    result: r?.result ?? 'success',
    redirect: r?.redirect ?? '',
    redirect_url: r?.requiresAction ? r.redirect : '',
    order_id: r?.orderId ?? 0,
    order_key: r?.orderKey ?? '',
    status: r?.status ?? '',
    paid_status: r?.paidStatus ?? '',
    payment_status: r?.outcome ?? '',
    requires_action: r?.requiresAction ?? false,
    intent_id: r?.intentId ?? '',
    client_secret: r?.clientSecret ?? '',
    transaction_id: r?.transactionId ?? '',
    message: r?.message ?? '',
    payment_method: r?.paymentMethod ?? '',
    total: num(r?.total),
    currency: r?.currency ?? '',
  };
}
