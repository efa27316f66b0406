import type { EntityManager } from '@mikro-orm/postgresql';

export async function loadSettings(em: EntityManager, gatewayId: string): Promise<Record<string, unknown> | undefined> {
  const rows = await em.execute<{ settings: Record<string, unknown> }[]>(
    `select "settings" from "payments"."gateway_settings" where "gateway_id" = ?`,
    [gatewayId],
  );
  return rows[0]?.settings;
}

export async function loadAllSettings(em: EntityManager): Promise<Map<string, Record<string, unknown>>> {
  const rows = await em.execute<{ gateway_id: string; settings: Record<string, unknown> }[]>(
    `select "gateway_id", "settings" from "payments"."gateway_settings"`,
  );
  return new Map(rows.map((r) => [r.gateway_id, r.settings]));
}

export async function saveSettings(em: EntityManager, gatewayId: string, settings: object, now: Date): Promise<void> {
  await em.execute(
    `insert into "payments"."gateway_settings" ("gateway_id", "settings", "updated_at") values (?, ?::jsonb, ?)
     on conflict ("gateway_id") do update set "settings" = excluded."settings", "updated_at" = excluded."updated_at"`,
    [gatewayId, JSON.stringify(settings), now],
  );
}
