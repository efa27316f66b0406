import { currencyDecimals, divRoundHalfUp, fromMinor } from '@storefront/money';
import { invalidParams, notFound } from '@storefront/errors';
import {
  productSales,
  productSalesPage,
  storeSales,
  type SalesTotalsRecord,
} from '../../persistence/analytics.repository';
import type { OrdersDeps } from '../deps';
import type { OrderStatus } from '../status/order-states';
import { parseCurrency, parsePeriod, previousWindow, type DayRange } from './period';

/**
 * The orders a report counts: placed and not abandoned or failed. Refunded
 * orders stay (their refunds are subtracted from net sales); pending_payment,
 * failed, cancelled and checkout drafts never count (docs/decisions.md).
 */
export const COUNTED_STATUSES: readonly OrderStatus[] = ['processing', 'completed', 'on_hold', 'refunded'];

/** Orders stores every amount in hundredths (pricing.ts `decimal`). */
const STORED_DECIMALS = 2;

export const MAX_PER_PAGE = 100;

export interface SalesTotals {
  grossSales: string;
  netSales: string;
  ordersCount: number;
  itemsSold: number;
  averageOrderValue: string;
  discounts: string;
  shipping: string;
  tax: string;
  refunds: string;
  newCustomers: number;
}

export interface StoreReport {
  from: string;
  to: string;
  currency: string;
  currenciesInPeriod: string[];
  totals: SalesTotals;
  previous: SalesTotals;
  intervals: Array<{ date: string; grossSales: string; netSales: string; ordersCount: number }>;
}

export interface ProductSales {
  productId: number;
  name: string;
  itemsSold: number;
  netSales: string;
  ordersCount: number;
}

export interface ProductReport extends ProductSales, DayRange {
  currency: string;
  intervals: Array<{ date: string; itemsSold: number; netSales: string; ordersCount: number }>;
}

/** Stored minor units -> the decimal string of `currency` (whole units for zero-decimal currencies). */
function amount(minor: number, currency: string): string {
  if (currencyDecimals(currency) === STORED_DECIMALS) return fromMinor(minor, STORED_DECIMALS);
  return String(divRoundHalfUp(BigInt(minor), 10n ** BigInt(STORED_DECIMALS)));
}

function totals(r: SalesTotalsRecord, currency: string): SalesTotals {
  const net = r.gross - r.discounts - r.refunds;
  const m = (v: number) => amount(v, currency);
  return {
    grossSales: m(r.gross),
    netSales: m(net),
    ordersCount: r.orders,
    itemsSold: r.items,
    averageOrderValue: r.orders ? m(Number(divRoundHalfUp(BigInt(net), BigInt(r.orders)))) : m(0),
    discounts: m(r.discounts),
    shipping: m(r.shipping),
    tax: m(r.tax),
    refunds: m(r.refunds),
    newCustomers: r.newCustomers,
  };
}

/** Sales reports (REST /analytics, /product-analytics), computed by SQL aggregates over the orders tables. */
export class Analytics {
  constructor(private readonly deps: OrdersDeps) {}

  async store(input: { from?: string; to?: string; compare?: number; currency: string }): Promise<StoreReport> {
    const period = parsePeriod(input, this.deps.now());
    const previous = previousWindow(period, input.compare);
    const currency = await this.currency(input.currency);
    const r = await storeSales(this.deps.db.reader, { period, previous, currency, statuses: COUNTED_STATUSES });
    return {
      ...period,
      currency,
      currenciesInPeriod: r.currencies,
      totals: totals(r.current, currency),
      previous: totals(r.previous, currency),
      intervals: r.days.map((d) => ({
        date: d.date,
        grossSales: amount(d.gross, currency),
        netSales: amount(d.gross - d.discounts - d.refunds, currency),
        ordersCount: d.orders,
      })),
    };
  }

  async products(input: {
    from?: string;
    to?: string;
    currency: string;
    search: string;
    page: number;
    perPage: number;
  }): Promise<{ products: ProductSales[]; total: number; period: DayRange; currency: string }> {
    const period = parsePeriod(input, this.deps.now());
    const page = input.page || 1;
    const perPage = input.perPage || 20;
    const bad: Record<string, string> = {};
    if (page < 1) bad.page = 'page must be at least 1.';
    if (perPage < 1 || perPage > MAX_PER_PAGE) bad.per_page = `per_page must be from 1 to ${MAX_PER_PAGE}.`;
    if (input.search.length > 200 || input.search.includes('\u0000')) bad.search = 'search must be at most 200 characters, without NUL.';
    if (Object.keys(bad).length) throw invalidParams(bad);
    const currency = await this.currency(input.currency);
    const r = await productSalesPage(this.deps.db.reader, {
      period,
      currency,
      statuses: COUNTED_STATUSES,
      search: input.search.trim(),
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      period,
      currency,
      total: r.total,
      products: r.products.map((p) => ({
        productId: p.productId,
        name: p.name,
        itemsSold: p.items,
        netSales: amount(p.net, currency),
        ordersCount: p.orders,
      })),
    };
  }

  /**
   * One product in the store currency. A product never ordered reports zeros
   * under its catalog name; an id unknown to both the orders and the catalog
   * is 404 rest_post_invalid_id (the catalog's code for a missing product).
   */
  async product(productId: number, input: { from?: string; to?: string }): Promise<ProductReport> {
    if (!Number.isSafeInteger(productId) || productId < 1) throw invalidParams({ id: 'id must be a positive integer.' });
    const period = parsePeriod(input, this.deps.now());
    const currency = await this.currency('');
    const r = await productSales(this.deps.db.reader, { productId, period, currency, statuses: COUNTED_STATUSES });
    const name = r.name ?? (await this.deps.catalog?.productName(productId)) ?? null;
    if (name === null) throw notFound('rest_post_invalid_id', 'Invalid product ID.', { product_id: productId });
    return {
      productId,
      name,
      ...period,
      currency,
      itemsSold: r.items,
      netSales: amount(r.net, currency),
      ordersCount: r.orders,
      intervals: r.days.map((d) => ({ date: d.date, itemsSold: d.items, netSales: amount(d.net, currency), ordersCount: d.orders })),
    };
  }

  private async currency(requested: string): Promise<string> {
    return parseCurrency(requested) || (await this.deps.store.currency()).toUpperCase();
  }
}
