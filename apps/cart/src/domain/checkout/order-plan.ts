import { fromMinor } from '@storefront/money';
import type { Actor } from '../actor';
import type { NewOrder } from '../ports';
import type { Snapshot } from '../pricing/snapshot';
import { addressOf, shippingAddressOf } from './fields';
import type { CheckoutPlan } from './checkout-record';

/** The order a priced cart becomes (totals are the cart's: charged equals displayed). */
export function orderPlan(input: {
  snapshot: Snapshot;
  fields: Record<string, string>;
  actor: Actor;
  checkoutKey: string;
  paymentMethod: string;
  gatewayTitle: string;
  draftOrderId: number;
  status: NewOrder['status'];
}): CheckoutPlan {
  const { snapshot: s, fields, actor } = input;
  const m = (v: number) => fromMinor(v, s.decimals);
  const rate = s.needsShipping ? s.rates.find((r) => r.id === s.chosenRate) : undefined;
  const billing = addressOf(fields, 'billing');
  const order: NewOrder = {
    checkoutKey: input.checkoutKey,
    draftOrderId: input.draftOrderId,
    status: input.status,
    customerId: actor.userId,
    currency: s.currency,
    billing,
    shipping: shippingAddressOf(fields),
    customerNote: fields.order_comments ?? '',
    paymentMethod: input.paymentMethod,
    paymentMethodTitle: input.gatewayTitle,
    reservationId: '',
    couponCodes: s.coupons.map((c) => c.code),
    lineItems: s.lines.map((l) => ({
      productId: l.productId,
      priceId: l.priceId,
      variationId: l.variationId,
      name: l.name,
      quantity: l.quantity,
      price: m(l.unit),
      subtotal: m(l.subtotal),
      discount: m(l.discount),
      tax: m(l.tax),
      total: m(l.subtotal - l.discount),
      downloadable: l.downloadable,
      shippingRequired: l.shippingRequired,
      sku: l.sku,
      ...(l.subscription ? { subscription: l.subscription } : {}),
    })),
    shippingLines: rate
      ? [{ methodId: rate.methodId, instanceId: rate.instanceId, rateId: rate.id, label: rate.label, total: m(s.totals.shipping), totalTax: m(s.totals.shippingTax) }]
      : [],
    couponLines: s.coupons.map((c) => ({ code: c.code, discount: m(c.discount) })),
    taxLines: s.taxLines,
    subtotal: m(s.totals.subtotal),
    discountTotal: m(s.totals.discount),
    shippingTotal: m(s.totals.shipping),
    totalTax: m(s.totals.tax),
    total: m(s.totals.total),
  };
  return {
    order,
    amount: order.total,
    currency: s.currency,
    email: billing.email,
    customerId: actor.userId,
    gatewayTitle: input.gatewayTitle,
    hasSubscription: s.hasSubscription,
    stockLines: s.lines
      .filter((l) => l.stock.manageStock)
      .map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity })),
    couponCodes: s.coupons.map((c) => c.code),
    checkoutUrl: s.urls.checkout,
    returnUrl: '',
    clientIp: actor.clientIp ?? '',
  };
}
