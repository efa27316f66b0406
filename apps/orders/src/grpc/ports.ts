import { anonymousCaller, bindClient, type Channel } from '@storefront/grpc-client';
import { DomainError } from '@storefront/errors';
import { catalog } from '@storefront/proto/catalog';
import { customers } from '@storefront/proto/customers';
import { fulfillment } from '@storefront/proto/fulfillment';
import { payments } from '@storefront/proto/payments';
import { fromMinor, toMinor } from '@storefront/money';
import type { CatalogPort, CustomersPort, PaymentsPort, PurchasableResult, QuotePort } from '../domain/ports';
import type { Address } from '../domain/orders/order-types';

const system = () => anonymousCaller('orders');
/** Reads a product whatever its status (drafts and private ones too): analytics names any product sold or listed. */
const productReader = () => ({ ...system(), capabilities: ['edit_shop_product', 'read_private_shop_products'] });

/** The catalog as orders needs it: purchasables by price (a product alone takes its first price). */
export function catalogPort(channel: Channel | undefined): CatalogPort | undefined {
  if (!channel) return undefined;
  const lookup = bindClient(channel, catalog.CatalogLookupServiceService);
  const products = bindClient(channel, catalog.ProductServiceService);
  const stock = bindClient(channel, catalog.StockServiceService);
  return {
    async adjustReservation(reservationId, lines) {
      await stock.adjustReservation({ reservationId, lines }, system());
    },
    async reserveStock(reservationId, lines, ttlSeconds) {
      await stock.reserveStock({ reservationId, lines, ttlSeconds }, system());
    },
    async commitReservation(reservationId) {
      await stock.commitReservation({ reservationId, orderPaid: false }, system());
    },
    async releaseReservation(reservationId, reason) {
      await stock.releaseReservation({ reservationId, reason }, system());
    },
    async productName(productId) {
      try {
        const { product } = await products.getProduct({ id: productId, context: 'view', ifNoneMatch: '' }, productReader());
        return product ? product.title : null;
      } catch (err) {
        if (DomainError.is(err) && err.status === 404) return null;
        throw err;
      }
    },
    async getPurchasables(refs) {
      const resolved = await Promise.all(
        refs.map(async (ref) => {
          if (ref.priceId) return ref;
          try {
            const { product } = await products.getProduct({ id: ref.productId, context: 'view', ifNoneMatch: '' }, system());
            const first = product?.prices?.[0];
            return first ? { ...ref, priceId: first.id } : null;
          } catch (err) {
            if (DomainError.is(err) && err.status < 500) return null;
            throw err;
          }
        }),
      );
      const known = resolved.filter((r): r is NonNullable<typeof r> => r !== null);
      const { results } = known.length
        ? await lookup.getPurchasables({ lines: known }, system())
        : { results: [] as catalog.PurchasableResult[] };
      let k = 0;
      return resolved.map((ref, i): PurchasableResult => {
        if (!ref) {
          return { error: { code: 'shop_order_invalid_product', status: 422, message: `Product ${refs[i].productId} has no price to sell.` } };
        }
        const result = results[k++]?.result;
        if (!result) return { error: { code: 'shop_order_invalid_line_item', status: 422, message: 'Unknown item.' } };
        if (result.$case === 'error') return { error: result.value };
        const p = result.value;
        return {
          ok: {
            productId: p.productId,
            priceId: p.priceId,
            variationId: p.variationId,
            name: p.name,
            unitAmount: toMinor(p.unitAmount || '0'),
            currency: p.currency,
            shippingRequired: p.shippingRequired,
            downloadable: p.downloadable,
            sku: p.sku,
            subscription:
              p.priceType === 'subscription'
                ? { billingPeriod: p.billingPeriod, billingInterval: p.billingInterval || 1, trialDays: p.trialDays }
                : null,
          },
        };
      });
    },
  };
}

/** The fulfillment quote engine (first available rate is the order's shipping). */
export function quotePort(channel: Channel | undefined): QuotePort | undefined {
  if (!channel) return undefined;
  const quotes = bindClient(channel, fulfillment.QuoteServiceService);
  return {
    async quote(destination: Address, lines) {
      const res = await quotes.quote(
        {
          destination: {
            country: destination.country,
            state: destination.state,
            postcode: destination.postcode,
            city: destination.city,
          },
          lines: lines.map((l) => ({
            key: l.key,
            amount: fromMinor(l.amount),
            subtotal: '',
            quantity: l.quantity,
            shippingRequired: l.shippingRequired,
            weight: '',
            taxClass: '',
          })),
          couponFreeShipping: false,
          subtotal: '',
          pricesIncludeTax: false,
          chosenRateId: '',
        },
        system(),
      );
      const chosen = res.rates.find((r) => r.id === res.chosenRateId);
      return {
        lineTax: new Map(res.lines.map((l) => [l.key, toMinor(l.tax || '0')])),
        shipping: chosen
          ? {
              methodId: chosen.methodId,
              instanceId: chosen.instanceId,
              rateId: chosen.id,
              label: chosen.label,
              cost: toMinor(chosen.cost || '0'),
              tax: toMinor(chosen.tax || '0'),
            }
          : null,
        taxLines: res.taxLines.map((t) => ({
          rateId: t.rateId,
          label: t.label,
          compound: t.compound,
          rate: t.rate,
          taxTotal: toMinor(t.taxTotal || '0'),
          shippingTaxTotal: toMinor(t.shippingTaxTotal || '0'),
        })),
        shippingTotal: toMinor(res.totals?.shippingTotal || '0'),
        taxTotal: toMinor(res.totals?.taxTotal || '0'),
      };
    },
  };
}

/** Refunds through the order's payment gateway. */
export function paymentsPort(channel: Channel | undefined): PaymentsPort | undefined {
  if (!channel) return undefined;
  const client = bindClient(channel, payments.PaymentServiceService);
  return {
    async refund(r) {
      const { refundId } = await client.refund(
        {
          orderId: r.orderId,
          gatewayId: r.gatewayId,
          transactionId: r.transactionId,
          amount: fromMinor(r.amount),
          currency: r.currency,
          reason: r.reason,
          idempotencyKey: r.idempotencyKey,
        },
        system(),
      );
      return refundId;
    },
  };
}

/** Account existence, asked of the customers service. */
export function customersPort(channel: Channel | undefined): CustomersPort | undefined {
  if (!channel) return undefined;
  const client = bindClient(channel, customers.CustomerServiceService);
  return {
    async existingCustomerIds(ids) {
      return (await client.findExistingCustomers({ ids }, system())).ids;
    },
  };
}
