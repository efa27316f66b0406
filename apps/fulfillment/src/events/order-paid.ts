import type { EventHandler } from '@storefront/events';
import type { orders } from '@storefront/proto/orders';
import type { Logger } from 'pino';
import type { DownloadsDomain } from '../domain/downloads';

/** orders.order_paid -> download permissions for the order's downloadable products (once per order). */
export function onOrderPaid(domain: DownloadsDomain, logger: Logger): EventHandler<orders.OrderPaid> {
  return async (envelope, em) => {
    const o = envelope.payload;
    const granted = await domain.downloads.grantForPaidOrder(em, {
      orderId: Number(o.orderId),
      customerId: Number(o.customerId),
      paidAt: o.paidAt ?? envelope.occurredAt,
      lines: o.lines.map((l) => ({ productId: Number(l.productId), variationId: Number(l.variationId) })),
    });
    logger.info({ orderId: o.orderId, granted: granted.length, eventId: envelope.id }, 'order_paid: downloads granted');
  };
}
