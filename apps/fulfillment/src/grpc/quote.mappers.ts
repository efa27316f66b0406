import { fromMinor } from '@storefront/money';
import type { fulfillment } from '@storefront/proto/fulfillment';
import type { QuoteRequestFields } from '../domain/quote/quote-input';
import type { QuoteResult, RateAmount } from '../domain/quote/quote-types';

export function fromProtoQuoteRequest(req: fulfillment.QuoteRequest): QuoteRequestFields {
  const d = req.destination;
  return {
    destination: { country: d?.country ?? '', state: d?.state ?? '', postcode: d?.postcode ?? '', city: d?.city ?? '' },
    lines: req.lines.map((l) => ({
      key: l.key,
      amount: l.amount,
      subtotal: l.subtotal,
      quantity: l.quantity,
      shippingRequired: l.shippingRequired,
      weight: l.weight,
      taxClass: l.taxClass,
    })),
    couponFreeShipping: req.couponFreeShipping,
    subtotal: req.subtotal,
    pricesIncludeTax: req.pricesIncludeTax,
    chosenRateId: req.chosenRateId,
  };
}

const money = (minor: bigint) => fromMinor(minor);
const rateAmounts = (amounts: RateAmount[]) => amounts.map((a) => ({ rateId: a.rateId, amount: money(a.amount) }));

export function toProtoQuote(q: QuoteResult): fulfillment.QuoteResponse {
  return {
    needsShipping: q.needsShipping,
    zone: q.zone,
    rates: q.rates.map((r) => ({
      id: r.id,
      methodId: r.methodId,
      instanceId: r.instanceId,
      label: r.label,
      cost: money(r.cost),
      tax: money(r.tax),
      taxes: rateAmounts(r.taxes),
    })),
    chosenRateId: q.chosenRateId,
    lines: q.lines.map((l) => ({ key: l.key, tax: money(l.tax), taxes: rateAmounts(l.taxes) })),
    taxLines: q.taxLines.map((t) => ({
      rateId: t.rateId,
      label: t.label,
      compound: t.compound,
      rate: t.rate,
      taxTotal: money(t.taxTotal),
      shippingTaxTotal: money(t.shippingTaxTotal),
    })),
    totals: {
      itemsTotal: money(q.totals.itemsTotal),
      itemsTax: money(q.totals.itemsTax),
      itemsSubtotalTax: money(q.totals.itemsSubtotalTax),
      shippingTotal: money(q.totals.shippingTotal),
      shippingTax: money(q.totals.shippingTax),
      taxTotal: money(q.totals.taxTotal),
      total: money(q.totals.total),
    },
    rounding: q.rounding,
  };
}
