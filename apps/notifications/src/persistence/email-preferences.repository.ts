import type { Reader } from '@storefront/persistence';

const T = '"notifications"."email_preferences"';

/**
 * Records a customer's order-email choice as of `changedAt`; an older change
 * (a late or repeated event) never overwrites a newer one, so the statement is
 * idempotent and order-insensitive.
 */
export async function saveOrderEmailChoice(reader: Reader, customerId: number, orderEmail: boolean, changedAt: Date): Promise<void> {
  await reader.query(
    `insert into ${T} (customer_id, order_email, changed_at) values (?, ?, ?)
     on conflict (customer_id) do update set order_email = excluded.order_email, changed_at = excluded.changed_at
     where ${T}.changed_at <= excluded.changed_at`,
    [customerId, orderEmail, changedAt],
  );
}

/** Of `customerIds`, those who turned order emails off. */
export async function optedOutOfOrderEmails(reader: Reader, customerIds: readonly number[]): Promise<Set<number>> {
  if (!customerIds.length) return new Set();
  const rows = await reader.query<{ customer_id: string }>(
    `select customer_id from ${T} where customer_id in (?) and not order_email`,
    [[...customerIds]],
  );
  return new Set(rows.map((r) => Number(r.customer_id)));
}
