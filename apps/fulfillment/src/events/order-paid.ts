import { idempotentConsumer, type EventEnvelope, type EventHandler, type EventShortcut } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { DownloadsDomain } from '../domain/downloads';
import type { PaidOrder } from '../domain/downloads/downloads';
import type { DownloadableProduct } from '../domain/downloads/types';

const paidOrder = (envelope: EventEnvelope<orders.OrderPaid>): PaidOrder => {
  const o = envelope.payload;
  return {
    orderId: Number(o.orderId),
    customerId: Number(o.customerId),
    paidAt: o.paidAt ?? envelope.occurredAt,
    lines: o.lines.map((l) => ({ productId: Number(l.productId), variationId: Number(l.variationId) })),
  };
};

/**
 * orders.order_paid -> the order's paid lines and, for a customer's order,
 * download permissions (once per order). The products come from catalog in
 * the shortcut, before the inbox transaction opens (a remote call inside it
 * would hold it open; on the embedded database, which has one session, it
 * would deadlock); the handler finds them by envelope.
 */
export function onOrderPaid(domain: DownloadsDomain, logger: Logger): { handler: EventHandler<orders.OrderPaid>; shortcut: EventShortcut<orders.OrderPaid> } {
  const productsOf = new WeakMap<EventEnvelope<orders.OrderPaid>, Map<number, DownloadableProduct>>();
  return {
    shortcut: async (envelope) => {
      const order = paidOrder(envelope);
      // A guest's paid order only has its lines recorded (one idempotent statement, no inbox transaction).
      if (await domain.downloads.recordGuestPaidOrder(order)) return true;
      productsOf.set(envelope, await domain.downloads.productsOfPaidOrder(order));
      return false;
    },
    handler: async (envelope, em) => {
      const products = productsOf.get(envelope);
      if (!products) throw new Error('order_paid reached its transaction without its products (the shortcut looks them up)');
      const granted = await domain.downloads.grantForPaidOrder(em, paidOrder(envelope), products);
      logger.info({ orderId: envelope.payload.orderId, granted: granted.length, eventId: envelope.id }, 'order_paid: downloads granted');
    },
  };
}

/**
 * An order that no longer counts as paid: cancelled after payment, fully
 * refunded, or deleted. Its download permissions are revoked and its lines
 * leave the paid orders a bundle sync walks.
 * One idempotent statement, no inbox transaction (the shortcut does it all).
 */
export function onPaidOrderGone<T extends { orderId: number }>(domain: DownloadsDomain, gone: (payload: T) => boolean) {
  return idempotentConsumer<T>(async (envelope) => {
    if (gone(envelope.payload)) await domain.downloads.forgetPaidOrder(Number(envelope.payload.orderId));
  });
}
