import type { EntityManager } from '@mikro-orm/postgresql';
import { fromMinor, toMinor } from '@storefront/money';
import { addOrderStats } from '../persistence/order-stats.repository';

/**
 * `total_orders` / `total_spent` of a customer (GET /me stats, customer
 * record). An order counts once it is paid (order_paid). It is taken back
 * when a paid order is cancelled (order_cancelled with was_paid) or fully
 * refunded (order_refunded full: the order and its amount; a partial refund
 * takes back only the amount). Guests' orders (customer 0) count nowhere.
 * Each event is applied once: the consumer's inbox drops redeliveries.
 */
export const OrderStats = {
  /** Whether a customer's orders count at all (a guest's never do). */
  counts(customerId: number): boolean {
    return customerId > 0;
  },
  async paid(em: EntityManager, customerId: number, total: string): Promise<void> {
    if (OrderStats.counts(customerId)) await addOrderStats(em, customerId, 1, amount(total));
  },
  async cancelled(em: EntityManager, customerId: number, wasPaid: boolean, total: string): Promise<void> {
    if (customerId > 0 && wasPaid) await addOrderStats(em, customerId, -1, negate(total));
  },
  /** A deleted order that still counted (paid, not cancelled, not fully refunded) leaves the stats with what it counted. */
  async deleted(em: EntityManager, customerId: number, counted: boolean, countedAmount: string): Promise<void> {
    if (customerId > 0 && counted) await addOrderStats(em, customerId, -1, negate(countedAmount));
  },
  async refunded(em: EntityManager, customerId: number, full: boolean, refunded: string): Promise<void> {
    if (customerId > 0) await addOrderStats(em, customerId, full ? -1 : 0, negate(refunded));
  },
};

const amount = (decimal: string) => fromMinor(toMinor(decimal || '0'));
const negate = (decimal: string) => fromMinor(-toMinor(decimal || '0'));
