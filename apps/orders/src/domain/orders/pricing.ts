import { fromMinor } from '@storefront/money';
import { unprocessable } from '@storefront/errors';
import type { OrdersDeps } from '../deps';
import { invalidOrderInput, serviceUnavailable } from '../errors';
import type { Address, LineInput, LineItem, OrderContent } from './order-types';

type PricedLine = Omit<LineItem, 'id'> & { id?: number };

/**
 * The largest line or order amount accepted, in minor units: sums of lines
 * stay exact integers in JavaScript (2^53) and far inside bigint columns. A
 * million units of the dearest catalog price would not.
 */
const MAX_AMOUNT_MINOR = 10 ** 15;

/** A line's subtotal (unit amount x quantity); 422 when it is beyond what an order can hold. */
export function lineSubtotal(unitAmount: number, quantity: number, what: string): number {
  const subtotal = unitAmount * quantity;
  if (!Number.isSafeInteger(subtotal) || subtotal > MAX_AMOUNT_MINOR) {
    throw unprocessable('shop_order_invalid_line_item', `${what}: the line's amount is too large.`);
  }
  return subtotal;
}

/**
 * Prices admin-entered lines with the catalog (by price_id, or product_id's
 * default price) and totals an order with the fulfillment quote engine:
 * total = subtotal - discount + shipping + tax, in minor units, to the cent.
 */
export class Pricing {
  constructor(private readonly deps: OrdersDeps) {}

  async priceLines(inputs: LineInput[], currency: string): Promise<PricedLine[]> {
    if (!inputs.length) return [];
    const bad: Record<string, string> = {};
    inputs.forEach((l, i) => {
      if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) bad[`line_items[${i}].quantity`] = 'quantity must be at least 1.';
      if (l.priceId < 0 || l.productId < 0 || l.variationId < 0) bad[`line_items[${i}]`] = 'ids must be positive.';
      if (!l.priceId && !l.productId) bad[`line_items[${i}]`] = 'price_id or product_id is required.';
    });
    if (Object.keys(bad).length) throw invalidOrderInput(bad);
    if (inputs.length > 100) throw invalidOrderInput({ line_items: 'At most 100 line items.' });
    const catalog = this.deps.catalog;
    if (!catalog) throw serviceUnavailable('The catalog');
    const results = await catalog.getPurchasables(
      inputs.map((l) => ({ priceId: l.priceId, productId: l.productId, variationId: l.variationId })),
    );
    return inputs.map((input, i) => {
      const result = results[i];
      if (!result || 'error' in result) {
        const e = result && 'error' in result ? result.error : { code: 'shop_order_invalid_line_item', message: 'Unknown item.' };
        throw unprocessable(e.code || 'shop_order_invalid_line_item', `line_items[${i}]: ${e.message}`, { index: i });
      }
      const p = result.ok;
      if (p.currency && p.currency !== currency) {
        throw unprocessable('shop_order_currency_mismatch', `line_items[${i}]: priced in ${p.currency}, the order is in ${currency}.`);
      }
      const subtotal = lineSubtotal(p.unitAmount, input.quantity, `line_items[${i}]`);
      return {
        productId: p.productId,
        priceId: p.priceId,
        variationId: p.variationId,
        name: p.name,
        quantity: input.quantity,
        price: p.unitAmount,
        subtotal,
        discount: 0,
        tax: 0,
        total: subtotal,
        downloadable: p.downloadable,
        shippingRequired: p.shippingRequired,
        sku: p.sku,
        metaData: parseMeta(input.metaJson),
        subscription: p.subscription,
      };
    });
  }

  /** Shipping and tax for `lines` delivered to the order's address, and the totals. */
  async total(lines: PricedLine[], shipping: Address, billing: Address, discountTotal = 0): Promise<OrderContent> {
    const subtotal = lines.reduce((n, l) => n + l.subtotal, 0);
    if (subtotal > MAX_AMOUNT_MINOR) throw unprocessable('shop_order_invalid_line_item', "The order's amount is too large.");
    const lineDiscount = lines.reduce((n, l) => n + l.discount, 0);
    const discount = Math.max(discountTotal, lineDiscount);
    if (!lines.length) {
      return { lineItems: [], shippingLines: [], couponLines: [], taxLines: [], subtotal: 0, discountTotal: 0, shippingTotal: 0, totalTax: 0, total: 0 };
    }
    const quotes = this.deps.quotes;
    if (!quotes) throw serviceUnavailable('The quote engine');
    const destination = shipping.country ? shipping : billing;
    const outcome = await quotes.quote(
      destination,
      lines.map((l, i) => ({ key: String(i), amount: l.total, quantity: l.quantity, shippingRequired: l.shippingRequired })),
    );
    const priced = lines.map((l, i) => ({ ...l, tax: outcome.lineTax.get(String(i)) ?? 0 }));
    const shippingTotal = outcome.shipping ? outcome.shipping.cost : 0;
    const totalTax = outcome.taxTotal;
    return {
      lineItems: priced,
      shippingLines: outcome.shipping
        ? [
            {
              methodId: outcome.shipping.methodId,
              instanceId: outcome.shipping.instanceId,
              rateId: outcome.shipping.rateId,
              label: outcome.shipping.label,
              total: outcome.shipping.cost,
              totalTax: outcome.shipping.tax,
            },
          ]
        : [],
      couponLines: [],
      taxLines: outcome.taxLines,
      subtotal,
      discountTotal: discount,
      shippingTotal,
      totalTax,
      total: subtotal - discount + shippingTotal + totalTax,
    };
  }
}

/**
 * The order's coupon lines after its lines changed: the same codes, their
 * discounts scaled to the lines' new discount total (a removed line takes its
 * share of each coupon with it), the rounding remainder on the last. Without
 * any discount left, no coupon line is left either.
 */
export function keptCoupons(coupons: ReadonlyArray<{ code: string; discount: number }>, discountTotal: number): Array<{ code: string; discount: number }> {
  const before = coupons.reduce((n, c) => n + c.discount, 0);
  if (!coupons.length || discountTotal <= 0) return [];
  if (before <= 0) return coupons.map((c) => ({ code: c.code, discount: c.discount }));
  let left = discountTotal;
  return coupons.map((c, i) => {
    const discount = i === coupons.length - 1 ? left : Math.min(left, Math.round((c.discount * discountTotal) / before));
    left -= discount;
    return { code: c.code, discount };
  });
}

export function parseMeta(metaJson: string): LineItem['metaData'] {
  if (!metaJson) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(metaJson);
  } catch {
    throw invalidOrderInput({ meta_data: 'meta_data must be an array of {key, value}.' });
  }
  if (!Array.isArray(parsed)) throw invalidOrderInput({ meta_data: 'meta_data must be an array of {key, value}.' });
  return parsed.map((m, i) => {
    if (!m || typeof m !== 'object' || typeof (m as { key?: unknown }).key !== 'string') {
      throw invalidOrderInput({ meta_data: 'each meta_data entry needs a string key.' });
    }
    return { id: i + 1, key: (m as { key: string }).key, valueJson: JSON.stringify((m as { value?: unknown }).value ?? null) };
  });
}

export const decimal = (minor: number) => fromMinor(minor);
