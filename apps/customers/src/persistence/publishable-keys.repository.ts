import type { EntityManager } from '@mikro-orm/postgresql';

export interface PublishableKeyRecord {
  id: number;
  name: string;
  key: string;
  allowedOrigins: string[];
  createdAt: Date;
}

interface Row {
  id: string;
  name: string;
  key: string;
  allowed_origins: string[];
  created_at: Date;
}

const T = '"customers"."publishable_keys"';
const toRecord = (r: Row): PublishableKeyRecord => ({
  id: Number(r.id),
  name: r.name,
  key: r.key,
  allowedOrigins: r.allowed_origins,
  createdAt: new Date(r.created_at),
});

export async function insertPublishableKey(em: EntityManager, k: Omit<PublishableKeyRecord, 'id'>): Promise<PublishableKeyRecord> {
  const rows = await em.execute<Row[]>(
    `insert into ${T} ("name", "key", "allowed_origins", "created_at") values (?, ?, ?::jsonb, ?) returning *`,
    [k.name, k.key, JSON.stringify(k.allowedOrigins), k.createdAt],
  );
  return toRecord(rows[0]);
}

export async function activePublishableKeys(em: EntityManager): Promise<PublishableKeyRecord[]> {
  const rows = await em.execute<Row[]>(`select * from ${T} where "revoked_at" is null order by "id"`);
  return rows.map(toRecord);
}

/** Revokes an active key; undefined when there is none with that id. */
export async function revokePublishableKey(em: EntityManager, id: number, now: Date): Promise<PublishableKeyRecord | undefined> {
  const rows = await em.execute<Row[]>(`update ${T} set "revoked_at" = ? where "id" = ? and "revoked_at" is null returning *`, [now, id]);
  return rows[0] && toRecord(rows[0]);
}
