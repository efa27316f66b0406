import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import type { DownloadPermission, NewPermission, PaidLine } from './download-records';

const P = '"fulfillment"."download_permissions"';
const L = '"fulfillment"."paid_order_lines"';
const SESS = '"fulfillment"."download_sessions"';
const R = '"fulfillment"."revoked_orders"';

type Row = Record<string, unknown>;

function toPermission(r: Row): DownloadPermission {
  return {
    id: Number(r.id),
    orderId: Number(r.order_id),
    customerId: Number(r.customer_id),
    productId: Number(r.product_id),
    productName: String(r.product_name),
    downloadId: String(r.download_id),
    downloadName: String(r.download_name),
    file: String(r.file),
    downloadsRemaining: Number(r.downloads_remaining),
    downloadCount: Number(r.download_count),
    accessGranted: new Date(r.access_granted as string),
    accessExpires: r.access_expires ? new Date(r.access_expires as string) : null,
  };
}

/** All lines in one statement; a line recorded before (a redelivery, a repeated line) is kept as it is. */
/** The lines of one paid order, unless the order was revoked meanwhile (its order_paid handled late). */
function paidLinesInsert(lines: readonly PaidLine[]): [string, unknown[]] {
  const tuples = lines.map(() => '(?::bigint, ?::bigint, ?::bigint, ?::bigint, ?::timestamptz)').join(', ');
  return [
    `insert into ${L} ("order_id", "product_id", "variation_id", "customer_id", "paid_at")
     select v.* from (values ${tuples}) as v (order_id, product_id, variation_id, customer_id, paid_at)
     where not exists (select 1 from ${R} r where r.order_id = v.order_id)
     on conflict do nothing`,
    lines.flatMap((l) => [l.orderId, l.productId, l.variationId, l.customerId, l.paidAt]),
  ];
}

export async function recordPaidLines(em: EntityManager, lines: readonly PaidLine[]): Promise<void> {
  if (lines.length) await em.execute(...paidLinesInsert(lines));
}

/** The same, outside any transaction (the statement is idempotent by itself). */
export async function recordPaidLinesNow(reader: Reader, lines: readonly PaidLine[]): Promise<void> {
  if (lines.length) await reader.query(...paidLinesInsert(lines));
}

/**
 * An order no longer paid: its paid lines and its download permissions (their
 * open sessions with them) go, and it is marked revoked, in one idempotent statement.
 */
export async function forgetPaidOrder(reader: Reader, orderId: number, now: Date): Promise<void> {
  await reader.query(
    `with permissions as (delete from ${P} where "order_id" = ?), lines as (delete from ${L} where "order_id" = ?)
     insert into ${R} ("order_id", "revoked_at") values (?, ?) on conflict do nothing`,
    [orderId, orderId, orderId, now],
  );
}

/** Whether the order stopped counting as paid (see forgetPaidOrder). */
export async function isRevokedOrder(em: EntityManager, orderId: number): Promise<boolean> {
  return (await em.execute(`select 1 from ${R} where "order_id" = ?`, [orderId])).length > 0;
}

/** Inserts the permissions that do not exist yet (one per order, product and file); returns the new ones. */
export async function insertPermissions(em: EntityManager, grants: NewPermission[]): Promise<DownloadPermission[]> {
  const created: DownloadPermission[] = [];
  for (const g of grants) {
    const rows = await em.execute<Row[]>(
      `insert into ${P} ("order_id", "customer_id", "product_id", "product_name", "download_id", "download_name", "file",
         "downloads_remaining", "access_granted", "access_expires")
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       on conflict ("order_id", "product_id", "download_id") do nothing returning *`,
      [g.orderId, g.customerId, g.productId, g.productName, g.downloadId, g.downloadName, g.file, g.downloadsRemaining, g.accessGranted, g.accessExpires],
    );
    if (rows[0]) created.push(toPermission(rows[0]));
  }
  return created;
}

export async function listCustomerPermissions(
  em: EntityManager,
  customerId: number,
  perPage: number,
  skip: number,
): Promise<{ permissions: DownloadPermission[]; total: number }> {
  const [{ count }] = await em.execute<{ count: string }[]>(`select count(*) as count from ${P} where "customer_id" = ?`, [customerId]);
  const rows = await em.execute<Row[]>(`select * from ${P} where "customer_id" = ? order by "id" limit ? offset ?`, [customerId, perPage, skip]);
  return { permissions: rows.map(toPermission), total: Number(count) };
}

export async function findPermission(em: EntityManager, id: number): Promise<DownloadPermission | null> {
  const [row] = await em.execute<Row[]>(`select * from ${P} where "id" = ?`, [id]);
  return row ? toPermission(row) : null;
}

/**
 * Opens a session on a permission that has a download free: unlimited, or
 * more remaining than sessions already holding one (open, younger than
 * `heldSince`). Run in a transaction: the permission row is locked first and
 * the sessions counted by the next statement (a snapshot taken after the
 * lock, so a concurrent open that just committed is counted); concurrent
 * opens queue and never hand out more than remain. Null when none is free.
 */
export async function openSession(tx: EntityManager, id: string, permissionId: number, heldSince: Date): Promise<{ file: string } | null> {
  const [locked] = await tx.execute<Row[]>(`select "downloads_remaining" from ${P} where "id" = ? for update`, [permissionId]);
  if (!locked) return null;
  const rows = await tx.execute<Row[]>(
    `insert into ${SESS} ("id", "permission_id", "file")
     select ?, p."id", p."file" from ${P} p
     where p."id" = ? and (p."downloads_remaining" < 0
        or p."downloads_remaining" > (select count(*) from ${SESS} s where s."permission_id" = p."id" and s."completed_at" is null and s."created_at" > ?))
     returning "file"`,
    [id, permissionId, heldSince],
  );
  return rows[0] ? { file: String(rows[0].file) } : null;
}

/** Closes an unfinished session uncounted (its download is free again); false when it was not open. */
export async function abandonSession(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute<Row[]>(`delete from ${SESS} where "id" = ? and "completed_at" is null returning "id"`, [id]);
  return rows.length > 0;
}

export async function findOpenSession(em: EntityManager, id: string): Promise<{ permissionId: number; file: string } | null> {
  const [row] = await em.execute<Row[]>(`select * from ${SESS} where "id" = ? and "completed_at" is null`, [id]);
  return row ? { permissionId: Number(row.permission_id), file: String(row.file) } : null;
}

/** Closes a session once; only the call that closes it counts the download (one conditional update each). */
export async function completeSession(em: EntityManager, id: string, now: Date): Promise<DownloadPermission | null> {
  const [session] = await em.execute<Row[]>(
    `update ${SESS} set "completed_at" = ? where "id" = ? and "completed_at" is null returning "permission_id"`,
    [now, id],
  );
  if (!session) return null;
  const [row] = await em.execute<Row[]>(
    `update ${P} set "download_count" = "download_count" + 1,
       "downloads_remaining" = case when "downloads_remaining" < 0 then "downloads_remaining" else greatest("downloads_remaining" - 1, 0) end
     where "id" = ? returning *`,
    [session.permission_id],
  );
  return row ? toPermission(row) : null;
}

/** Paid orders containing `productId`, oldest first: one page and the total. */
export async function paidOrdersWithProduct(
  em: EntityManager,
  productId: number,
  perPage: number,
  skip: number,
): Promise<{ orders: { orderId: number; customerId: number; paidAt: Date }[]; total: number }> {
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(distinct "order_id") as count from ${L} where "product_id" = ?`,
    [productId],
  );
  const rows = await em.execute<Row[]>(
    `select "order_id", min("customer_id") as customer_id, min("paid_at") as paid_at from ${L}
     where "product_id" = ? group by "order_id" order by "order_id" limit ? offset ?`,
    [productId, perPage, skip],
  );
  return {
    orders: rows.map((r) => ({ orderId: Number(r.order_id), customerId: Number(r.customer_id), paidAt: new Date(r.paid_at as string) })),
    total: Number(count),
  };
}
