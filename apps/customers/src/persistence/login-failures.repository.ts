import type { EntityManager } from '@mikro-orm/postgresql';

export interface FailureLimit {
  scope: string;
  max: number;
}

export type Reservation = { ids: number[] } | { blockedUntil: Date };

/**
 * Atomic check-and-record of one attempt against failure limits: under a
 * transaction-scoped advisory lock per scope (taken in a fixed order, so two
 * attempts never deadlock), counts the failures inside the window and, when
 * every scope is under its limit, records this attempt as a failure before
 * the password is even checked. Parallel attempts therefore queue on the lock
 * and at most `max` of them are let through; a successful attempt releases
 * its rows afterwards.
 */
export async function reserveAttempt(
  em: EntityManager,
  limits: FailureLimit[],
  since: Date,
  now: Date,
): Promise<Reservation> {
  return em.transactional(async (tx) => {
    const scopes = [...new Set(limits.map((l) => l.scope))].sort();
    for (const scope of scopes) {
      await tx.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`login_failures:${scope}`]);
    }
    for (const { scope, max } of limits) {
      const rows = await tx.execute<{ count: string; oldest: Date | null }[]>(
        `select count(*) as count, min(failed_at) as oldest from (
           select failed_at from "customers"."login_failures"
           where scope = ? and failed_at > ? order by failed_at desc limit ?) recent`,
        [scope, since, max],
      );
      const { count, oldest } = rows[0];
      if (Number(count) >= max && oldest) return { blockedUntil: new Date(new Date(oldest).getTime() + (now.getTime() - since.getTime())) };
    }
    const ids: number[] = [];
    for (const scope of scopes) {
      const [row] = await tx.execute<{ id: string }[]>(
        `insert into "customers"."login_failures" (scope, failed_at) values (?, ?) returning id`,
        [scope, now],
      );
      ids.push(Number(row.id));
    }
    await tx.execute(`delete from "customers"."login_failures" where scope in (?) and failed_at <= ?`, [scopes, since]);
    return { ids };
  });
}

/** Forgets the attempt's provisional failure rows (the attempt succeeded). */
export async function releaseAttempt(em: EntityManager, ids: number[]): Promise<void> {
  if (ids.length) await em.execute(`delete from "customers"."login_failures" where id in (?)`, [ids]);
}

export async function resetScope(em: EntityManager, scope: string): Promise<void> {
  await em.execute(`delete from "customers"."login_failures" where scope = ?`, [scope]);
}
