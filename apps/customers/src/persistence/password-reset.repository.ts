import type { EntityManager } from '@mikro-orm/postgresql';

/** Queues a forgot-password request (same work whether or not the address has an account). */
export async function enqueueResetRequest(em: EntityManager, email: string, now: Date): Promise<void> {
  await em.execute(`insert into "customers"."password_reset_requests" (email, requested_at) values (?, ?)`, [email, now]);
}

/** Takes up to `limit` queued requests (other replicas skip them); deleted when the transaction commits. */
export async function claimResetRequests(em: EntityManager, limit: number): Promise<string[]> {
  const rows = await em.execute<{ email: string }[]>(
    `delete from "customers"."password_reset_requests" where id in (
       select id from "customers"."password_reset_requests" order by id limit ? for update skip locked)
     returning email`,
    [limit],
  );
  return rows.map((r) => r.email);
}

/**
 * Consumes a reset key in one conditional update: only an unused, unexpired
 * key with this hash matches, so of two concurrent resets with one key
 * exactly one gets the row back.
 */
export async function consumeResetKey(em: EntityManager, userId: number, keyHash: string, now: Date): Promise<boolean> {
  const rows = await em.execute(
    `update "customers"."password_reset_keys" set used_at = ?
     where user_id = ? and key_hash = ? and used_at is null and expires_at > ? returning user_id`,
    [now, userId, keyHash, now],
  );
  return rows.length === 1;
}
