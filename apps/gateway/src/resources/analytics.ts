import { Type } from 'typebox';
import { decimalToNumber } from '@storefront/money';
import type { orders } from '@storefront/proto/orders';
import type { FastifyRequest } from 'fastify';
import { resourceLinks } from '../http/links';
import { LinksSchema } from '../http/responses';

// The analytics reports of the contract ("Analytics") and of
// docs/decisions.md "Analytics" (product reports): amounts are JSON numbers
// with the currency's decimals, dates YYYY-MM-DD (UTC days).

const Day = Type.String({ description: 'YYYY-MM-DD (UTC day).' });
const Money = (description: string) => Type.Number({ description });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const SalesTotalsSchema = Type.Object(
  {
    gross_sales: Money('Sum of line subtotals (before discounts).'),
    net_sales: Money('gross_sales - discounts - refunds.'),
    orders_count: Count('Counted orders (processing, completed, on_hold, refunded).'),
    items_sold: Count('Sum of line quantities.'),
    average_order_value: Money('net_sales / orders_count (0 without orders).'),
    discounts: Money('Sum of order discounts.'),
    shipping: Money('Sum of shipping totals (before tax).'),
    tax: Money('Sum of order tax.'),
    refunds: Money("What refunds took back of the products' net (not shipping or tax)."),
    new_customers: Count('Signed-in customers whose first counted order is in the window.'),
  },
  { title: 'SalesTotals', additionalProperties: false },
);

export const AnalyticsSchema = Type.Object(
  {
    from: Day,
    to: Day,
    currency: Type.String({ description: 'ISO 4217 code every amount is in.' }),
    currencies_in_period: Type.Array(Type.String(), { description: 'Currencies of the counted orders in [from, to].' }),
    // previous: the same totals over the `compare` days before `from`.
    totals: SalesTotalsSchema,
    previous: SalesTotalsSchema,
    intervals: Type.Array(
      Type.Object(
        { date: Day, gross_sales: Money('Gross sales of the day.'), net_sales: Money('Net sales of the day.'), orders_count: Count('Orders of the day.') },
        { additionalProperties: false },
      ),
      { description: 'One per day of [from, to], days without orders included.' },
    ),
  },
  { title: 'Analytics', additionalProperties: false },
);

export const ProductAnalyticsSchema = Type.Object(
  {
    product_id: Type.Integer(),
    name: Type.String({ description: 'The name on the product\'s latest order line.' }),
    items_sold: Count('Units sold.'),
    net_sales: Money('Line totals after discounts, before tax.'),
    orders_count: Count('Counted orders containing the product.'),
    _links: LinksSchema,
  },
  { title: 'ProductAnalytics', additionalProperties: false },
);

export const ProductAnalyticsDetailSchema = Type.Object(
  {
    product_id: Type.Integer(),
    name: Type.String(),
    from: Day,
    to: Day,
    currency: Type.String({ description: 'The store currency: the only one a product detail reports.' }),
    items_sold: Count('Units sold.'),
    net_sales: Money('Line totals after discounts, before tax.'),
    orders_count: Count('Counted orders containing the product.'),
    intervals: Type.Array(
      Type.Object(
        { date: Day, items_sold: Count('Units of the day.'), net_sales: Money('Net sales of the day.'), orders_count: Count('Orders of the day.') },
        { additionalProperties: false },
      ),
      { description: 'One per day of [from, to], days without sales included.' },
    ),
    _links: LinksSchema,
  },
  { title: 'ProductAnalyticsDetail', additionalProperties: false },
);

const n = decimalToNumber;

function totalsResource(t: orders.AnalyticsTotals | undefined) {
  const v = t ?? ({} as Partial<orders.AnalyticsTotals>);
  return {
    gross_sales: n(v.grossSales || '0'),
    net_sales: n(v.netSales || '0'),
    orders_count: v.ordersCount ?? 0,
    items_sold: v.itemsSold ?? 0,
    average_order_value: n(v.averageOrderValue || '0'),
    discounts: n(v.discounts || '0'),
    shipping: n(v.shipping || '0'),
    tax: n(v.tax || '0'),
    refunds: n(v.refunds || '0'),
    new_customers: v.newCustomers ?? 0,
  };
}

export function analyticsResource(r: orders.GetStoreAnalyticsResponse) {
  return {
    from: r.from,
    to: r.to,
    currency: r.currency,
    currencies_in_period: r.currenciesInPeriod,
    totals: totalsResource(r.totals),
    previous: totalsResource(r.previous),
    intervals: r.intervals.map((i) => ({
      date: i.date,
      gross_sales: n(i.grossSales),
      net_sales: n(i.netSales),
      orders_count: i.ordersCount,
    })),
  };
}

const PRODUCT_ANALYTICS = '/shop/v1/product-analytics';

export function productAnalyticsResource(p: orders.ProductSales, request: FastifyRequest) {
  return {
    product_id: p.productId,
    name: p.name,
    items_sold: p.itemsSold,
    net_sales: n(p.netSales),
    orders_count: p.ordersCount,
    _links: resourceLinks(request, `${PRODUCT_ANALYTICS}/${p.productId}`, PRODUCT_ANALYTICS),
  };
}

export function productAnalyticsDetailResource(r: orders.GetProductAnalyticsResponse, request: FastifyRequest) {
  return {
    product_id: r.productId,
    name: r.name,
    from: r.from,
    to: r.to,
    currency: r.currency,
    items_sold: r.itemsSold,
    net_sales: n(r.netSales),
    orders_count: r.ordersCount,
    intervals: r.intervals.map((i) => ({ date: i.date, items_sold: i.itemsSold, net_sales: n(i.netSales), orders_count: i.ordersCount })),
    _links: resourceLinks(request, `${PRODUCT_ANALYTICS}/${r.productId}`, PRODUCT_ANALYTICS),
  };
}
