import type { EntityManager } from '@mikro-orm/postgresql';

export interface StoredResponse {
  fingerprint: string;
  response: Record<string, unknown>;
}

/** The first response stored for a caller's key within `ttlSeconds`. */
export async function findResponse(em: EntityManager, callerId: number, key: string, ttlSeconds: number): Promise<StoredResponse | undefined> {
  const rows = await em.execute<StoredResponse[]>(
    `select "fingerprint", "response" from "payments"."idempotency_keys"
     where "caller_id" = ? and "key" = ? and "created_at" > now() - make_interval(secs => ?)`,
    [callerId, key, ttlSeconds],
  );
  return rows[0];
}

/** Stores the first response (replacing an expired one); false when another one won. */
export async function storeResponse(
  em: EntityManager,
  callerId: number,
  key: string,
  fingerprint: string,
  response: object,
  ttlSeconds: number,
): Promise<boolean> {
  const rows = await em.execute<{ key: string }[]>(
    `insert into "payments"."idempotency_keys" ("caller_id", "key", "fingerprint", "response", "created_at")
     values (?, ?, ?, ?::jsonb, now())
     on conflict ("caller_id", "key") do update set "fingerprint" = excluded."fingerprint", "response" = excluded."response",
       "created_at" = excluded."created_at"
     where "idempotency_keys"."created_at" <= now() - make_interval(secs => ?)
     returning "key"`,
    [callerId, key, fingerprint, JSON.stringify(response), ttlSeconds],
  );
  return rows.length === 1;
}
