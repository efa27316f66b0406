import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { NotificationsDomain } from '../domain';

type Line = orders.OrderCancelledLine;

function itemsText(lines: Line[]): string {
  return lines.map((l) => `${l.quantity} x ${l.name}${l.total ? ` (${l.total})` : ''}`).join('; ');
}

function orderUrl(domain: NotificationsDomain, orderId: number): string {
  return new URL(`/my-account/view-order/${orderId}/`, domain.deps.config.SHOP_SITE_URL).toString();
}

/** orders.order_placed -> "order received" to the customer, "new order" to the store admin. */
export function onOrderPlaced(domain: NotificationsDomain): EventHandler<orders.OrderPlaced> {
  return async ({ payload: o }, em) => {
    const vars = {
      order_id: String(o.orderId),
      first_name: o.billingFirstName,
      total: o.total,
      currency: o.currency,
      items: itemsText(o.lines),
      payment_method: o.paymentMethod,
      order_url: orderUrl(domain, Number(o.orderId)),
    };
    await domain.emails.sendAll(em, [
      ...(o.billingEmail ? [{ type: 'order_received' as const, to: o.billingEmail, vars }] : []),
      { type: 'admin_new_order' as const, to: domain.deps.config.SHOP_ADMIN_EMAIL, vars },
    ]);
  };
}

export function onOrderPaid(domain: NotificationsDomain): EventHandler<orders.OrderPaid> {
  return async ({ payload: o }, em) => {
    if (!o.billingEmail) return;
    await domain.emails.send(em, 'order_paid', o.billingEmail, {
      order_id: String(o.orderId),
      first_name: o.billingFirstName,
      total: o.total,
      currency: o.currency,
      items: itemsText(o.lines),
      order_url: orderUrl(domain, Number(o.orderId)),
    });
  };
}

export function onOrderCancelled(domain: NotificationsDomain): EventHandler<orders.OrderCancelled> {
  return async ({ payload: o }, em) => {
    if (!o.billingEmail) return;
    await domain.emails.send(em, 'order_cancelled', o.billingEmail, {
      order_id: String(o.orderId),
      first_name: o.billingFirstName,
      total: o.total,
      currency: o.currency,
      order_url: orderUrl(domain, Number(o.orderId)),
    });
  };
}

export function onOrderRefunded(domain: NotificationsDomain): EventHandler<orders.OrderRefunded> {
  return async ({ payload: o }, em) => {
    if (!o.billingEmail) return;
    await domain.emails.send(em, 'order_refunded', o.billingEmail, {
      order_id: String(o.orderId),
      first_name: o.billingFirstName,
      amount: o.amount,
      currency: o.currency,
      reason: o.reason,
      order_url: orderUrl(domain, Number(o.orderId)),
    });
  };
}
