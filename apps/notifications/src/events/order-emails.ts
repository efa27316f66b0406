import type { orders } from '@storefront/proto/orders';
import type { NotificationsDomain } from '../domain';
import { emailConsumer } from './email-consumer';

type Line = orders.OrderCancelledLine;

function itemsText(lines: Line[]): string {
  return lines.map((l) => `${l.quantity} x ${l.name}${l.total ? ` (${l.total})` : ''}`).join('; ');
}

function orderUrl(domain: NotificationsDomain, orderId: number): string {
  return new URL(`/my-account/view-order/${orderId}/`, domain.deps.config.SHOP_SITE_URL).toString();
}

/** orders.order_placed -> "order received" to the customer, "new order" to the store admin. */
export function onOrderPlaced(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderPlaced>(domain, (o) => {
    const vars = {
      order_id: String(o.orderId),
      first_name: o.billingFirstName,
      total: o.total,
      currency: o.currency,
      items: itemsText(o.lines),
      payment_method: o.paymentMethod,
      order_url: orderUrl(domain, Number(o.orderId)),
    };
    return [
      ...(o.billingEmail ? [{ type: 'order_received' as const, to: o.billingEmail, vars }] : []),
      { type: 'admin_new_order' as const, to: domain.deps.config.SHOP_ADMIN_EMAIL, vars },
    ];
  });
}

export function onOrderPaid(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderPaid>(domain, (o) =>
    o.billingEmail
      ? [
          {
            type: 'order_paid',
            to: o.billingEmail,
            vars: {
              order_id: String(o.orderId),
              first_name: o.billingFirstName,
              total: o.total,
              currency: o.currency,
              items: itemsText(o.lines),
              order_url: orderUrl(domain, Number(o.orderId)),
            },
          },
        ]
      : [],
  );
}

export function onOrderCancelled(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderCancelled>(domain, (o) =>
    o.billingEmail
      ? [
          {
            type: 'order_cancelled',
            to: o.billingEmail,
            vars: {
              order_id: String(o.orderId),
              first_name: o.billingFirstName,
              total: o.total,
              currency: o.currency,
              order_url: orderUrl(domain, Number(o.orderId)),
            },
          },
        ]
      : [],
  );
}

export function onOrderRefunded(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderRefunded>(domain, (o) =>
    o.billingEmail
      ? [
          {
            type: 'order_refunded',
            to: o.billingEmail,
            vars: {
              order_id: String(o.orderId),
              first_name: o.billingFirstName,
              amount: o.amount,
              currency: o.currency,
              reason: o.reason,
              order_url: orderUrl(domain, Number(o.orderId)),
            },
          },
        ]
      : [],
  );
}
