import { idempotentConsumer, type EventEnvelope } from '@storefront/events';
import { toMinor } from '@storefront/money';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { PaidOrder, Subscriptions } from '../domain/subscriptions/subscriptions';

const paidOrder = (envelope: EventEnvelope<orders.OrderPaid>): PaidOrder => {
  const o = envelope.payload;
  return {
    orderId: Number(o.orderId),
    customerId: Number(o.customerId),
    currency: o.currency,
    paidAt: o.paidAt ?? envelope.occurredAt,
    lines: o.lines.map((l) => ({
      lineId: Number(l.lineId),
      productId: Number(l.productId),
      priceId: Number(l.priceId),
      variationId: Number(l.variationId),
      name: l.name,
      quantity: Number(l.quantity),
      total: toMinor(l.total || '0'),
      tax: toMinor(l.tax || '0'),
      subscription: l.subscription ?? null,
    })),
  };
};

/**
 * orders.order_paid -> its subscriptions start. One idempotent statement (the
 * start key), and nothing at all for an order without subscription lines: no
 * inbox transaction (the shortcut does it all).
 */
export function startSubscriptionsOnPaid(subscriptions: Subscriptions, logger: Logger) {
  return idempotentConsumer<orders.OrderPaid>(async (envelope) => {
    const started = await subscriptions.startForPaidOrder(paidOrder(envelope));
    if (started) logger.info({ orderId: envelope.payload.orderId, started, eventId: envelope.id }, 'order_paid: subscriptions started');
  });
}
