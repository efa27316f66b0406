import { fromMinor } from '@storefront/money';
import type { cart } from '@storefront/proto/cart';
import type { PricedLine, Snapshot } from '../domain/pricing/snapshot';
import type { SessionOutcome } from '../domain/sessions/cart-sessions';

export function lineMessage(l: PricedLine, decimals: number): cart.CartLine {
  const m = (v: number) => fromMinor(v, decimals);
  return {
    itemKey: l.itemKey,
    productId: l.productId,
    priceId: l.priceId,
    name: l.name,
    image: l.image,
    quantity: l.quantity,
    price: m(l.unit),
    subtotal: m(l.subtotal),
    variationId: l.variationId,
    couponDiscount: m(l.discount),
    bogoFreeUnits: l.bogoFreeUnits,
    bogoCoupon: l.bogoCoupon,
    sku: l.sku,
    shippingRequired: l.shippingRequired,
    downloadable: l.downloadable,
    tax: m(l.tax),
    priceType: l.priceType,
  };
}

export function snapshotMessage(s: Snapshot): cart.CartSnapshot {
  const m = (v: number) => fromMinor(v, s.decimals);
  return {
    items: s.lines.map((l) => lineMessage(l, s.decimals)),
    totals: {
      subtotal: m(s.totals.subtotal),
      shipping: m(s.totals.shipping),
      tax: m(s.totals.tax),
      discount: m(s.totals.discount),
      total: m(s.totals.total),
      shippingTax: m(s.totals.shippingTax),
    },
    currency: s.currency,
    needsShipping: s.needsShipping,
    needsPayment: s.needsPayment,
    appliedCoupons: s.coupons.map((c) => ({ code: c.code, discount: m(c.discount), freeShipping: c.freeShipping })),
    itemCount: s.itemCount,
    shippingRates: s.rates.map((r) => ({ id: r.id, label: r.label, cost: r.cost, tax: r.tax, methodId: r.methodId, instanceId: r.instanceId })),
    chosenShippingMethod: s.chosenRate,
    taxLines: s.taxLines.map((t) => ({ ...t })),
    pricesIncludeTax: s.pricesIncludeTax,
    currencySymbol: s.currencySymbol,
    priceDecimals: s.decimals,
    urls: s.urls,
    notices: s.notices,
    hasSubscription: s.hasSubscription,
  };
}

export function sessionMessage(s: SessionOutcome): cart.SessionOutcome {
  return { token: s.token, clear: s.clear };
}
