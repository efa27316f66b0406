import type { EntityManager } from '@mikro-orm/postgresql';

/** Ends every live session of a user except the one stored as `keepId` ('' keeps none). */
export async function endLiveSessions(em: EntityManager, userId: number, endedAt: Date, keepId: string): Promise<void> {
  await em.execute(
    `update "customers"."sessions" set ended_at = ? where user_id = ? and ended_at is null and id <> ?`,
    [endedAt, userId, keepId],
  );
}
