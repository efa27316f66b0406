import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { orders } from '@storefront/proto/orders';
import { formatDateTime } from '../http/dates';
import { resourceLinks } from '../http/links';
import { Address } from '../http/schemas';
import { restAddress } from './address';

// The order record of the contract ("Records the spec leaves open"), the
// customer dashboard's summary and detail (spec 2.3). Money is a JSON number.

/** Statuses whose downloadable lines the customer may download. */
const DOWNLOADS_PERMITTED = new Set(['processing', 'completed']);
export const ORDER_STATUSES = [
  'checkout_draft',
  'pending_payment',
  'processing',
  'on_hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;

const DateTime = Type.Union([Type.String({ description: 'YYYY-MM-DD HH:MM:SS (UTC).' }), Type.Null()]);
const Money = (description?: string) => Type.Number(description ? { description } : {});
const Meta = Type.Array(
  Type.Object({ id: Type.Integer(), key: Type.String(), value: Type.Unknown() }, { additionalProperties: false }),
);

export const OrderLineItemSchema = Type.Object(
  {
    id: Type.Integer(),
    product_id: Type.Integer(),
    price_id: Type.Integer(),
    variation_id: Type.Integer({ description: '0 when none.' }),
    name: Type.String(),
    quantity: Type.Integer(),
    price: Money('Unit price.'),
    subtotal: Money('price x quantity, before discounts.'),
    discount: Money(),
    tax: Money(),
    total: Money('subtotal - discount.'),
    sku: Type.String(),
    downloadable: Type.Boolean(),
    shipping_required: Type.Boolean(),
    meta_data: Meta,
  },
  { title: 'OrderLineItem' },
);

const ShippingLineSchema = Type.Object({
  id: Type.Integer(),
  method_id: Type.String(),
  instance_id: Type.Integer(),
  rate_id: Type.String(),
  label: Type.String(),
  total: Money(),
  total_tax: Money(),
});
const CouponLineSchema = Type.Object({ id: Type.Integer(), code: Type.String(), discount: Money() });
const TaxLineSchema = Type.Object({
  id: Type.Integer(),
  rate_id: Type.Integer(),
  label: Type.String(),
  compound: Type.Boolean(),
  rate: Type.String({ description: 'Percentage with 4 places ("20.0000").' }),
  tax_total: Money(),
  shipping_tax_total: Money(),
});

const Links = Type.Object({}, { additionalProperties: true });

export const OrderSchema = Type.Object(
  {
    id: Type.Integer({ readOnly: true }),
    status: Type.Unsafe<string>({ type: 'string', enum: [...ORDER_STATUSES] }),
    paid_status: Type.Unsafe<string>({ type: 'string', enum: ['unpaid', 'paid', 'partially_refunded', 'refunded'] }),
    order_key: Type.String({ readOnly: true }),
    currency: Type.String({ description: 'ISO 4217 code.' }),
    customer_id: Type.Integer({ description: '0 for a guest order.' }),
    payment_method: Type.String(),
    payment_method_title: Type.String(),
    transaction_id: Type.String(),
    customer_note: Type.String(),
    billing: Address,
    shipping: Address,
    line_items: Type.Array(OrderLineItemSchema),
    shipping_lines: Type.Array(ShippingLineSchema),
    coupon_lines: Type.Array(CouponLineSchema),
    tax_lines: Type.Array(TaxLineSchema),
    subtotal: Money(),
    discount_total: Money(),
    shipping_total: Money(),
    total_tax: Money(),
    total: Money('subtotal - discount_total + shipping_total + total_tax.'),
    item_count: Type.Integer({ description: 'Sum of line quantities.' }),
    needs_payment: Type.Boolean(),
    date_created: DateTime,
    date_modified: DateTime,
    date_paid: DateTime,
    date_completed: DateTime,
    meta_data: Meta,
    created_via: Type.Optional(Type.String({ description: 'edit context: checkout | admin.' })),
    refunded_total: Type.Optional(Money('edit context.')),
    reservation_id: Type.Optional(Type.String({ description: 'edit context: the checkout stock reservation.' })),
    status_history: Type.Optional(
      Type.Array(
        Type.Object({
          from: Type.String({ description: '"" for the status the order was created in.' }),
          to: Type.String(),
          by_user_id: Type.Integer({ description: '0: the system.' }),
          cause: Type.String(),
          note: Type.String(),
          date: DateTime,
        }),
        { description: 'edit context (single order): every transition, oldest first.' },
      ),
    ),
    _links: Links,
  },
  { title: 'Order' },
);

export const OrderSummarySchema = Type.Object(
  {
    id: Type.Integer(),
    status: Type.String(),
    paid_status: Type.String(),
    currency: Type.String(),
    total: Money(),
    item_count: Type.Integer(),
    date_created: DateTime,
    date_modified: DateTime,
    date_paid: DateTime,
    date_completed: DateTime,
    needs_payment: Type.Boolean(),
    _links: Links,
  },
  { title: 'OrderSummary' },
);

export const OrderDetailSchema = Type.Object(
  {
    id: Type.Integer(),
    status: Type.String(),
    paid_status: Type.String(),
    currency: Type.String(),
    item_count: Type.Integer(),
    needs_payment: Type.Boolean(),
    date_created: DateTime,
    date_modified: DateTime,
    date_paid: DateTime,
    date_completed: DateTime,
    line_items: Type.Array(OrderLineItemSchema),
    shipping_lines: Type.Array(ShippingLineSchema),
    coupon_lines: Type.Array(CouponLineSchema),
    tax_lines: Type.Array(TaxLineSchema),
    totals: Type.Object({
      subtotal: Money(),
      discount: Money(),
      shipping: Money(),
      tax: Money(),
      total: Money(),
    }),
    billing: Address,
    shipping: Address,
    payment_method: Type.String(),
    payment_method_title: Type.String(),
    transaction_id: Type.String(),
    customer_note: Type.String(),
    downloadable_items: Type.Array(
      Type.Object({ line_item_id: Type.Integer(), product_id: Type.Integer(), variation_id: Type.Integer(), name: Type.String(), quantity: Type.Integer() }),
    ),
    _links: Links,
  },
  { title: 'OrderDetail' },
);

export const PayOrderSchema = Type.Object(
  {
    order_id: Type.Integer(),
    pay_url: Type.String({ format: 'uri' }),
    amount: Money(),
    currency: Type.String(),
  },
  { title: 'PayOrderResult' },
);

export const InvoiceSchema = Type.Object(
  { order_id: Type.Integer(), invoice_url: Type.String({ format: 'uri' }) },
  { title: 'OrderInvoice' },
);

const num = (decimal: string) => Number(decimal || 0);

function meta(list: orders.OrderMeta[]) {
  if (!list.length) return [];
  return list.map((m) => {
    let value: unknown;
    try {
      value = JSON.parse(m.valueJson || 'null');
    } catch {
      value = m.valueJson;
    }
    return { id: m.id, key: m.key, value };
  });
}

// Each resource is built in one object literal (lists map 20-100 orders per
// request): no intermediate objects spread into the result.

function lineItems(o: orders.Order) {
  return o.lineItems.map((l) => ({
    id: l.id,
    product_id: l.productId,
    price_id: l.priceId,
    variation_id: l.variationId,
    name: l.name,
    quantity: l.quantity,
    price: num(l.price),
    subtotal: num(l.subtotal),
    discount: num(l.discount),
    tax: num(l.tax),
    total: num(l.total),
    sku: l.sku,
    downloadable: l.downloadable,
    shipping_required: l.shippingRequired,
    meta_data: meta(l.metaData),
  }));
}

const shippingLines = (o: orders.Order) =>
  o.shippingLines.map((s) => ({
    id: s.id,
    method_id: s.methodId,
    instance_id: s.instanceId,
    rate_id: s.rateId,
    label: s.label,
    total: num(s.total),
    total_tax: num(s.totalTax),
  }));

const couponLines = (o: orders.Order) => o.couponLines.map((c) => ({ id: c.id, code: c.code, discount: num(c.discount) }));

const taxLines = (o: orders.Order) =>
  o.taxLines.map((t) => ({
    id: t.id,
    rate_id: t.rateId,
    label: t.label,
    compound: t.compound,
    rate: t.rate,
    tax_total: num(t.taxTotal),
    shipping_tax_total: num(t.shippingTaxTotal),
  }));

const ORDERS = '/shop/v1/order';
const MY_ORDERS = '/shop/v1/me/orders';

/** The admin order resource (`context=edit` adds how it was created, its refunds and reservation). */
export function orderResource(
  o: orders.Order,
  request: FastifyRequest,
  context = 'view',
  history?: orders.StatusChange[],
) {
  const resource: Static<typeof OrderSchema> = {
    id: o.id,
    status: o.status,
    paid_status: o.paidStatus,
    order_key: o.orderKey,
    currency: o.currency,
    customer_id: o.customerId,
    payment_method: o.paymentMethod,
    payment_method_title: o.paymentMethodTitle,
    transaction_id: o.transactionId,
    customer_note: o.customerNote,
    billing: restAddress(o.billing),
    shipping: restAddress(o.shipping),
    line_items: lineItems(o),
    shipping_lines: shippingLines(o),
    coupon_lines: couponLines(o),
    tax_lines: taxLines(o),
    subtotal: num(o.subtotal),
    discount_total: num(o.discountTotal),
    shipping_total: num(o.shippingTotal),
    total_tax: num(o.totalTax),
    total: num(o.total),
    item_count: o.itemCount,
    needs_payment: o.needsPayment,
    date_created: formatDateTime(o.dateCreated),
    date_modified: formatDateTime(o.dateModified),
    date_paid: formatDateTime(o.datePaid),
    date_completed: formatDateTime(o.dateCompleted),
    meta_data: meta(o.metaData),
    created_via: undefined,
    refunded_total: undefined,
    reservation_id: undefined,
    status_history: undefined,
    _links: resourceLinks(request, `${ORDERS}/${o.id}`, ORDERS),
  };
  if (context === 'edit') {
    resource.created_via = o.createdVia;
    resource.refunded_total = num(o.refundedTotal);
    resource.reservation_id = o.reservationId;
  }
  if (history) {
    resource.status_history = history.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      by_user_id: h.byUserId,
      cause: h.cause,
      note: h.note,
      date: formatDateTime(h.changedAt),
    }));
  }
  return resource;
}

/** A customer's order list item (spec 2.3 "Order summary"). */
export function orderSummaryResource(o: orders.Order, request: FastifyRequest) {
  return {
    id: o.id,
    status: o.status,
    paid_status: o.paidStatus,
    currency: o.currency,
    total: num(o.total),
    item_count: o.itemCount,
    date_created: formatDateTime(o.dateCreated),
    date_modified: formatDateTime(o.dateModified),
    date_paid: formatDateTime(o.datePaid),
    date_completed: formatDateTime(o.dateCompleted),
    needs_payment: o.needsPayment,
    _links: resourceLinks(request, `${MY_ORDERS}/${o.id}`, MY_ORDERS),
  };
}

/** A customer's order detail (spec 2.3 "Order detail"). */
export function orderDetailResource(o: orders.Order, request: FastifyRequest) {
  return {
    id: o.id,
    status: o.status,
    paid_status: o.paidStatus,
    currency: o.currency,
    item_count: o.itemCount,
    needs_payment: o.needsPayment,
    date_created: formatDateTime(o.dateCreated),
    date_modified: formatDateTime(o.dateModified),
    date_paid: formatDateTime(o.datePaid),
    date_completed: formatDateTime(o.dateCompleted),
    line_items: lineItems(o),
    shipping_lines: shippingLines(o),
    coupon_lines: couponLines(o),
    tax_lines: taxLines(o),
    totals: {
      subtotal: num(o.subtotal),
      discount: num(o.discountTotal),
      shipping: num(o.shippingTotal),
      tax: num(o.totalTax),
      total: num(o.total),
    },
    billing: restAddress(o.billing),
    shipping: restAddress(o.shipping),
    payment_method: o.paymentMethod,
    payment_method_title: o.paymentMethodTitle,
    transaction_id: o.transactionId,
    customer_note: o.customerNote,
    // Only an order that grants downloads (paid: processing or completed) lists them, as the host platform does.
    downloadable_items: o.lineItems
      .filter((l) => l.downloadable && DOWNLOADS_PERMITTED.has(o.status))
      .map((l) => ({ line_item_id: l.id, product_id: l.productId, variation_id: l.variationId, name: l.name, quantity: l.quantity })),
    _links: resourceLinks(request, `${MY_ORDERS}/${o.id}`, MY_ORDERS),
  };
}
