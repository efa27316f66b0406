import { bindClient, type Channel } from '@storefront/grpc-client';
import { fulfillment } from '@storefront/proto/fulfillment';
import type { QuotePort } from '../../domain/ports';
import { SERVICE_CALLER } from './service-caller';
import { unavailable } from './unavailable';

/** Fulfillment's shipping and tax engine over gRPC. */
export function quotePort(channel: Channel | undefined): QuotePort {
  if (!channel) return unavailable('fulfillment', 'FULFILLMENT_GRPC_ADDR');
  const quotes = bindClient(channel, fulfillment.QuoteServiceService);
  return {
    async quote(input) {
      const q = await quotes.quote(
        {
          destination: input.destination,
          lines: input.lines.map((l) => ({ key: l.key, amount: l.amount, subtotal: l.subtotal, quantity: l.quantity, shippingRequired: l.shippingRequired, weight: '', taxClass: '' })),
          couponFreeShipping: input.couponFreeShipping,
          subtotal: '',
          pricesIncludeTax: input.pricesIncludeTax,
          chosenRateId: input.chosenRateId,
        },
        SERVICE_CALLER,
      );
      const t = q.totals;
      return {
        needsShipping: q.needsShipping,
        rates: q.rates.map((r) => ({ id: r.id, methodId: r.methodId, instanceId: r.instanceId, label: r.label, cost: r.cost, tax: r.tax })),
        chosenRateId: q.chosenRateId,
        lineTaxes: new Map(q.lines.map((l) => [l.key, l.tax])),
        taxLines: q.taxLines.map((l) => ({
          rateId: l.rateId,
          label: l.label,
          compound: l.compound,
          rate: l.rate,
          taxTotal: l.taxTotal,
          shippingTaxTotal: l.shippingTaxTotal,
        })),
        totals: {
          itemsTotal: t?.itemsTotal || '0',
          itemsTax: t?.itemsTax || '0',
          itemsSubtotalTax: t?.itemsSubtotalTax || '0',
          shippingTotal: t?.shippingTotal || '0',
          shippingTax: t?.shippingTax || '0',
          taxTotal: t?.taxTotal || '0',
          total: t?.total || '0',
        },
      };
    },
  };
}
