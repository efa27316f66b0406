import type { EntityManager } from '@mikro-orm/postgresql';

/** One more completed download for the customer's stats (total_downloads). */
export async function incrementTotalDownloads(em: EntityManager, userId: number): Promise<void> {
  await em.execute(`update "customers"."users" set "total_downloads" = "total_downloads" + 1 where "id" = ?`, [userId]);
}
