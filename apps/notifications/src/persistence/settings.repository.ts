import type { EntityManager } from '@mikro-orm/postgresql';

const T = '"notifications"."settings"';

export async function readSetting<T>(em: EntityManager, key: string, fallback: T): Promise<T> {
  const [row] = await em.execute<{ value: unknown }[]>(`select "value" from ${T} where "key" = ?`, [key]);
  if (!row) return fallback;
  const value = typeof row.value === 'string' ? JSON.parse(row.value) : row.value;
  return { ...fallback, ...(value as object) };
}

export async function writeSetting(em: EntityManager, key: string, value: unknown): Promise<void> {
  await em.execute(
    `insert into ${T} ("key", "value") values (?, ?::jsonb) on conflict ("key") do update set "value" = excluded."value"`,
    [key, JSON.stringify(value)],
  );
}
