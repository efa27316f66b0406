import { idempotentConsumer, type EventEnvelope, type EventHandler, type EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { DownloadsDomain } from '../domain/downloads';
import type { PaidOrder } from '../domain/downloads/downloads';

const paidOrder = (envelope: EventEnvelope<orders.OrderPaid>): PaidOrder => {
  const o = envelope.payload;
  return {
    orderId: Number(o.orderId),
    customerId: Number(o.customerId),
    paidAt: o.paidAt ?? envelope.occurredAt,
    lines: o.lines.map((l) => ({ productId: Number(l.productId), variationId: Number(l.variationId) })),
  };
};

/** orders.order_paid -> download permissions for the order's downloadable products (once per order). */
export function onOrderPaid(domain: DownloadsDomain, logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const granted = await domain.downloads.grantForPaidOrder(em, paidOrder(envelope));
    logger.info({ orderId: envelope.payload.orderId, granted: granted.length, eventId: envelope.id }, 'order_paid: downloads granted');
  };
}

/** A guest's paid order only has its lines recorded (one idempotent statement, no inbox transaction). */
export function orderPaidShortcut(domain: DownloadsDomain): EventShortcut<orders.OrderPaid> {
  return (envelope) => domain.downloads.recordGuestPaidOrder(paidOrder(envelope));
}

/**
 * An order that no longer counts as paid: cancelled after payment, fully
 * refunded, or deleted. Its lines leave the paid orders a bundle sync walks.
 * One idempotent statement, no inbox transaction (the shortcut does it all).
 */
export function onPaidOrderGone<T extends { orderId: number }>(domain: DownloadsDomain, gone: (payload: T) => boolean) {
  return idempotentConsumer<T>(async (envelope) => {
    if (gone(envelope.payload)) await domain.downloads.forgetPaidOrder(Number(envelope.payload.orderId));
  });
}
