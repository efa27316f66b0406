import type { EntityManager } from '@mikro-orm/postgresql';
import { inboxHoldsQuery, inboxInsert, inboxParams, type InboxKey } from '@storefront/events';
import { escapeLike, type Reader } from '@storefront/persistence';
import type { EmailLogEntry, EmailLogQuery } from './email-records';

const T = '"notifications"."email_logs"';

type Row = Record<string, unknown>;

function toEntry(row: Row): EmailLogEntry {
  return {
    id: Number(row.id),
    type: String(row.type),
    to: String(row.to),
    subject: String(row.subject),
    body: String(row.body),
    html: String(row.html),
    status: row.status === 'sent' ? 'sent' : 'failed',
    error: String(row.error),
    resentFrom: Number(row.resent_from),
    createdAt: new Date(row.created_at as string),
    sentAt: row.sent_at ? new Date(row.sent_at as string) : null,
  };
}

/** Inserts log entries in one statement; returns them in the given order. */
export async function insertEmailLogs(
  em: EntityManager,
  entries: ReadonlyArray<Omit<EmailLogEntry, 'id' | 'createdAt'>>,
): Promise<EmailLogEntry[]> {
  if (!entries.length) return [];
  const rows = await em.execute<Row[]>(
    `insert into ${T} ("type", "to", "subject", "body", "html", "status", "error", "resent_from", "sent_at")
     values ${entries.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')} returning *`,
    entries.flatMap((e) => [e.type, e.to, e.subject, e.body, e.html, e.status, e.error, e.resentFrom, e.sentAt]),
  );
  // Ids follow the order of the values list (one sequence, one statement).
  return rows.map(toEntry).sort((a, b) => a.id - b.id);
}

const ONCE = '"notifications"."email_once_keys"';

/**
 * Whether the consumer has recorded the event already (a redelivery), and
 * which of `onceKeys` this event may send: those it claims now, and those it
 * claimed in an earlier delivery that did not finish. A key another event
 * claimed is not this event's to send. One statement: two events claiming
 * one key at the same time queue on it, and one of them gets it.
 */
export async function claimOnceKeys(reader: Reader, inbox: InboxKey, onceKeys: readonly string[]): Promise<{ handled: boolean; mine: Set<string> }> {
  const [row] = await reader.query<{ handled: boolean; claimed: string[] | null; held: string[] | null }>(
    `with claimed as (
       insert into ${ONCE} ("key", "event_id") select k, ? from jsonb_array_elements_text(?::jsonb) as k
       on conflict do nothing returning "key"
     )
     select exists(${inboxHoldsQuery('notifications')}) as handled,
       array(select "key" from claimed) as claimed,
       array(select "key" from ${ONCE} where "event_id" = ? and "key" in (select jsonb_array_elements_text(?::jsonb))) as held`,
    [inbox.eventId, JSON.stringify(onceKeys), ...inboxParams(inbox), inbox.eventId, JSON.stringify(onceKeys)],
  );
  return { handled: Boolean(row?.handled), mine: new Set([...(row?.claimed ?? []), ...(row?.held ?? [])]) };
}

/**
 * Records the event in the inbox and, only when it was not there yet, the log
 * entries (in the given order): one statement, one transaction.
 */
export async function insertEmailLogsOnce(
  reader: Reader,
  entries: ReadonlyArray<Omit<EmailLogEntry, 'id' | 'createdAt'>>,
  inbox: InboxKey,
): Promise<void> {
  await reader.query(
    `with ${inboxInsert('notifications', 'handled')}
     insert into ${T} ("type", "to", "subject", "body", "html", "status", "error", "resent_from", "sent_at")
     select e."type", e."to", e.subject, e.body, e.html, e.status, e.error, e.resent_from, e.sent_at
     from jsonb_to_recordset(?::jsonb) as e("type" text, "to" text, subject text, body text, html text,
       status text, error text, resent_from bigint, sent_at timestamptz, ord int)
     where exists (select 1 from handled)
     order by e.ord`,
    [
      ...inboxParams(inbox),
      JSON.stringify(
        entries.map((e, ord) => ({
          ord,
          type: e.type,
          to: e.to,
          subject: e.subject,
          body: e.body,
          html: e.html,
          status: e.status,
          error: e.error,
          resent_from: e.resentFrom,
          sent_at: e.sentAt?.toISOString() ?? null,
        })),
      ),
    ],
  );
}

export async function listEmailLogs(em: EntityManager, q: EmailLogQuery): Promise<{ entries: EmailLogEntry[]; total: number }> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.status) {
    where.push(`"status" = ?`);
    params.push(q.status);
  }
  if (q.type) {
    where.push(`"type" = ?`);
    params.push(q.type);
  }
  if (q.search) {
    const like = `%${escapeLike(q.search)}%`;
    where.push(`("to" ilike ? or "subject" ilike ?)`);
    params.push(like, like);
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

export async function findEmailLog(em: EntityManager, id: number): Promise<EmailLogEntry | null> {
  const [row] = await em.execute<Row[]>(`select * from ${T} where "id" = ?`, [id]);
  return row ? toEntry(row) : null;
}

export async function deleteEmailLog(em: EntityManager, id: number): Promise<EmailLogEntry | null> {
  const [row] = await em.execute<Row[]>(`delete from ${T} where "id" = ? returning *`, [id]);
  return row ? toEntry(row) : null;
}

/** Deletes sent entries older than `sentDays` and failed ones older than `failedDays` (0 = keep forever). */
export async function purgeEmailLogs(em: EntityManager, sentDays: number, failedDays: number, now: Date): Promise<number> {
  let deleted = 0;
  for (const [status, days] of [
    ['sent', sentDays],
    ['failed', failedDays],
  ] as const) {
    if (days <= 0) continue;
    const cutoff = new Date(now.getTime() - days * 86_400_000);
    const rows = await em.execute<Row[]>(`delete from ${T} where "status" = ? and "created_at" < ? returning "id"`, [status, cutoff]);
    deleted += rows.length;
  }
  return deleted;
}
