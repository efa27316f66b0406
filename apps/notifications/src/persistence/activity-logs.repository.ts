import { inboxInsert, inboxParams, type InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import type { ActivityLogEntry, ActivityLogQuery, LogStatus } from './activity-records';

const T = '"notifications"."activity_logs"';

type Row = Record<string, unknown>;

function toEntry(row: Row): ActivityLogEntry {
  const context = typeof row.context === 'string' ? JSON.parse(row.context) : row.context;
  return {
    id: Number(row.id),
    status: row.status as LogStatus,
    source: String(row.source),
    message: String(row.message),
    context: (context ?? {}) as Record<string, unknown>,
    customerId: Number(row.customer_id),
    orderId: Number(row.order_id),
    createdAt: new Date(row.created_at as string),
  };
}

/**
 * Inserts the entry unless the activity log is switched off (`enabled: false`
 * in the settings row `settingsKey`; no row or no flag = on), in one statement:
 * the setting is read where it is applied, so a change on any replica counts at once.
 */
export async function insertActivityLogIfEnabled(
  em: EntityManager,
  settingsKey: string,
  entry: Omit<ActivityLogEntry, 'id' | 'createdAt'>,
): Promise<void> {
  await em.execute(
    `insert into ${T} ("status", "source", "message", "context", "customer_id", "order_id")
     select ?, ?, ?, ?::jsonb, ?, ?
     where coalesce((select ("value"->>'enabled')::boolean from "notifications"."settings" where "key" = ?), true)`,
    [entry.status, entry.source, entry.message, JSON.stringify(entry.context), entry.customerId, entry.orderId, settingsKey],
  );
}

/**
 * The same insert outside any transaction, recording the event (`consumer`,
 * `eventId`) in the inbox in the same statement: the entry is written only by
 * the statement that records the event, so a redelivery (or a concurrent
 * duplicate, which waits on the first one's inbox row) writes nothing. One
 * autocommit statement instead of an inbox transaction of four.
 */
export async function insertActivityLogOnce(
  reader: Reader,
  settingsKey: string,
  entry: Omit<ActivityLogEntry, 'id' | 'createdAt'>,
  inbox: InboxKey,
): Promise<void> {
  await reader.query(
    `with ${inboxInsert('notifications', 'handled')}
     insert into ${T} ("status", "source", "message", "context", "customer_id", "order_id")
     select ?, ?, ?, ?::jsonb, ?, ? from handled
     where coalesce((select ("value"->>'enabled')::boolean from "notifications"."settings" where "key" = ?), true)`,
    [
      ...inboxParams(inbox),
      entry.status,
      entry.source,
      entry.message,
      JSON.stringify(entry.context),
      entry.customerId,
      entry.orderId,
      settingsKey,
    ],
  );
}

export async function listActivityLogs(em: EntityManager, q: ActivityLogQuery): Promise<{ entries: ActivityLogEntry[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.status) {
    where.push(`"status" = ?`);
    params.push(q.status);
  }
  if (q.customerId) {
    where.push(`"customer_id" = ?`);
    params.push(q.customerId);
  }
  if (q.orderId) {
    where.push(`"order_id" = ?`);
    params.push(q.orderId);
  }
  const clause = where.length ? `where ${where.join(' and ')}` : '';
  const [{ count }] = await em.execute<{ count: string }[]>(`select count(*) as count from ${T} ${clause}`, params);
  const rows = await em.execute<Row[]>(`select * from ${T} ${clause} order by "id" desc limit ? offset ?`, [
    ...params,
    q.perPage,
    (q.page - 1) * q.perPage,
  ]);
  return { entries: rows.map(toEntry), total: Number(count) };
}

export async function findActivityLog(em: EntityManager, id: number): Promise<ActivityLogEntry | null> {
  const rows = await em.execute<Row[]>(`select * from ${T} where "id" = ?`, [id]);
  return rows[0] ? toEntry(rows[0]) : null;
}

export async function deleteActivityLogs(em: EntityManager, ids: number[]): Promise<number> {
  if (!ids.length) return 0;
  const marks = ids.map(() => '?').join(', ');
  const rows = await em.execute<Row[]>(`delete from ${T} where "id" in (${marks}) returning "id"`, ids);
  return rows.length;
}

export async function purgeActivityLogs(em: EntityManager, days: number, now: Date): Promise<number> {
  if (days <= 0) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  const rows = await em.execute<Row[]>(`delete from ${T} where "created_at" < ? returning "id"`, [cutoff]);
  return rows.length;
}
