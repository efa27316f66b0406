import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Adds to a customer's order stats (negative deltas take back), never below
 * zero; one conditional update, inside the consumer's inbox transaction.
 */
export async function addOrderStats(em: EntityManager, customerId: number, orders: number, spent: string): Promise<void> {
  await em.execute(
    `update "customers"."users"
        set total_orders = greatest(0, total_orders + ?),
            total_spent = greatest(0, total_spent + ?::numeric)
      where id = ?`,
    [orders, spent, customerId],
  );
}
