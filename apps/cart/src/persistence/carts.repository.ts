import type { EntityManager } from '@mikro-orm/postgresql';
import type { Reader } from '@storefront/persistence';
import type { CartRecord, LineRecord } from './cart-record';

const T = {
  carts: '"cart"."carts"',
  lines: '"cart"."cart_lines"',
};

interface CartRow {
  id: string;
  customer_id: number | null;
  fields: Record<string, string>;
  coupons: string[];
  revision: number;
  draft_order_id: number;
  lines: Array<{ item_key: string; product_id: number; price_id: number; variation_id: number; quantity: number; position: number }> | null;
}

const SELECT_CART = `select c.id, c.customer_id, c.fields, c.coupons, c.revision, c.draft_order_id,
  (select json_agg(l order by l.position) from ${T.lines} l where l.cart_id = c.id) as lines
  from ${T.carts} c`;

function toRecord(row: CartRow | undefined): CartRecord | null {
  if (!row) return null;
  return {
    id: row.id,
    customerId: row.customer_id,
    fields: row.fields ?? {},
    coupons: row.coupons ?? [],
    revision: row.revision,
    draftOrderId: row.draft_order_id,
    lines: (row.lines ?? []).map(
      (l): LineRecord => ({
        itemKey: l.item_key,
        productId: Number(l.product_id),
        priceId: Number(l.price_id),
        variationId: Number(l.variation_id),
        quantity: Number(l.quantity),
        position: Number(l.position),
      }),
    ),
  };
}

/** Hot read: the cart of a guest token hash, with its lines. */
export async function readCartByToken(reader: Reader, hash: string): Promise<CartRecord | null> {
  return toRecord((await reader.query<CartRow>(`${SELECT_CART} where c.token_hash = ?`, [hash]))[0]);
}

export async function readCartByCustomer(reader: Reader, customerId: number): Promise<CartRecord | null> {
  return toRecord((await reader.query<CartRow>(`${SELECT_CART} where c.customer_id = ?`, [customerId]))[0]);
}

export async function readCartById(reader: Reader, id: string): Promise<CartRecord | null> {
  return toRecord((await reader.query<CartRow>(`${SELECT_CART} where c.id = ?`, [id]))[0]);
}

export async function findCartById(em: EntityManager, id: string): Promise<CartRecord | null> {
  return toRecord((await em.execute<CartRow[]>(`${SELECT_CART} where c.id = ?`, [id]))[0]);
}

export async function findCartByTokenForUpdate(em: EntityManager, hash: string): Promise<CartRecord | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from ${T.carts} where token_hash = ? for update`, [hash]);
  return rows[0] ? findCartById(em, rows[0].id) : null;
}

export async function findCartByCustomerForUpdate(em: EntityManager, customerId: number): Promise<CartRecord | null> {
  const rows = await em.execute<{ id: string }[]>(`select id from ${T.carts} where customer_id = ? for update`, [customerId]);
  return rows[0] ? findCartById(em, rows[0].id) : null;
}

/** Locks the cart row for the rest of the transaction and reads it with its lines (one statement); null when it is gone. */
export async function lockCart(em: EntityManager, id: string): Promise<CartRecord | null> {
  return toRecord((await em.execute<CartRow[]>(`${SELECT_CART} where c.id = ? for update of c`, [id]))[0]);
}

/** Inserts a cart unless one exists for the token hash / customer; returns whether it inserted. */
export async function insertCart(
  em: EntityManager,
  cart: { id: string; tokenHash: string | null; customerId: number | null },
  now: Date,
): Promise<boolean> {
  const rows = await em.execute(
    `insert into ${T.carts} (id, token_hash, customer_id, fields, coupons, revision, draft_order_id, created_at, updated_at)
     values (?, ?, ?, '{}', '[]', 0, 0, ?, ?) on conflict do nothing returning id`,
    [cart.id, cart.tokenHash, cart.customerId, now, now],
  );
  return rows.length > 0;
}

/**
 * A guest's first add: the cart row and its first line in one statement
 * (revision 1, as a change gives it). Null when a cart with this token hash
 * or id exists already (a twin request): the caller takes the general path.
 */
export async function insertCartWithLine(
  reader: Reader,
  cart: { id: string; tokenHash: string | null; customerId: number | null },
  line: Omit<LineRecord, 'position'>,
  now: Date,
): Promise<CartRecord | null> {
  const rows = await reader.query(
    `with cart as (
       insert into ${T.carts} (id, token_hash, customer_id, fields, coupons, revision, draft_order_id, created_at, updated_at)
       values (?, ?, ?, '{}', '[]', 1, 0, ?, ?) on conflict do nothing returning id)
     insert into ${T.lines} (cart_id, item_key, product_id, price_id, variation_id, quantity, position)
     select id, ?, ?, ?, ?, ?, 1 from cart returning cart_id`,
    [cart.id, cart.tokenHash, cart.customerId, now, now, line.itemKey, line.productId, line.priceId, line.variationId, line.quantity],
  );
  if (!rows.length) return null;
  return { id: cart.id, customerId: cart.customerId, fields: {}, coupons: [], revision: 1, draftOrderId: 0, lines: [{ ...line, position: 1 }] };
}

/** Inserts a line, or sets (`add` false) or adds to (`add` true, at most `maxQuantity`) the quantity of the same line. */
export async function upsertLine(
  em: EntityManager,
  cartId: string,
  line: Omit<LineRecord, 'position'>,
  add: boolean,
  maxQuantity = Number.MAX_SAFE_INTEGER,
): Promise<void> {
  await em.execute(
    `insert into ${T.lines} (cart_id, item_key, product_id, price_id, variation_id, quantity, position)
     values (?, ?, ?, ?, ?, ?, (select coalesce(max(position), 0) + 1 from ${T.lines} where cart_id = ?))
     on conflict (cart_id, item_key) do update set quantity = ${add ? `least(${T.lines}.quantity + excluded.quantity, ?::int)` : 'excluded.quantity'}`,
    [cartId, line.itemKey, line.productId, line.priceId, line.variationId, line.quantity, cartId, ...(add ? [Math.min(maxQuantity, 2 ** 31 - 1)] : [])],
  );
}

export async function deleteLine(em: EntityManager, cartId: string, itemKey: string): Promise<void> {
  await em.execute(`delete from ${T.lines} where cart_id = ? and item_key = ?`, [cartId, itemKey]);
}

export async function deleteLines(em: EntityManager, cartId: string): Promise<void> {
  await em.execute(`delete from ${T.lines} where cart_id = ?`, [cartId]);
}

export async function touchCart(
  em: EntityManager,
  id: string,
  now: Date,
  changes: { coupons?: string[]; fields?: Record<string, string>; draftOrderId?: number; bump?: boolean } = {},
): Promise<void> {
  const sets = ['updated_at = ?'];
  const params: unknown[] = [now];
  if (changes.coupons) {
    sets.push('coupons = ?::jsonb');
    params.push(JSON.stringify(changes.coupons));
  }
  if (changes.fields) {
    sets.push('fields = ?::jsonb');
    params.push(JSON.stringify(changes.fields));
  }
  if (changes.draftOrderId !== undefined) {
    sets.push('draft_order_id = ?');
    params.push(changes.draftOrderId);
  }
  if (changes.bump) sets.push('revision = revision + 1');
  await em.execute(`update ${T.carts} set ${sets.join(', ')} where id = ?`, [...params, id]);
}

/** Bumps the revision only when it is still `revision` (a checkout's cart that nobody changed since). */
export async function clearPlacedCart(em: EntityManager, id: string, revision: number, now: Date): Promise<boolean> {
  const rows = await em.execute(
    `update ${T.carts} set coupons = '[]', draft_order_id = 0, updated_at = ? where id = ? and revision = ? returning id`,
    [now, id, revision],
  );
  if (!rows.length) return false;
  await deleteLines(em, id);
  return true;
}

/**
 * A cart whose placement failed after it was answered (its action step was
 * declined or expired): a new revision unless the customer changed it since
 * (then it has one already), so the same request is a new checkout, not a
 * replay; the failed order is no longer its draft either way.
 */
export async function bumpFailedCart(em: EntityManager, id: string, revision: number, orderId: number, now: Date): Promise<boolean> {
  const rows = await em.execute(
    `update ${T.carts} set updated_at = ?,
       revision = case when revision = ? then revision + 1 else revision end,
       draft_order_id = case when draft_order_id = ? then 0 else draft_order_id end
     where id = ? and (revision = ? or draft_order_id = ?) returning id`,
    [now, revision, orderId, id, revision, orderId],
  );
  return rows.length > 0;
}

export async function deleteCart(em: EntityManager, id: string): Promise<void> {
  await deleteLines(em, id);
  await em.execute(`delete from ${T.carts} where id = ?`, [id]);
}

export async function assignCartToCustomer(em: EntityManager, id: string, customerId: number, now: Date): Promise<void> {
  await em.execute(`update ${T.carts} set customer_id = ?, token_hash = null, updated_at = ? where id = ?`, [customerId, now, id]);
}

/** Guest carts untouched since `before`, deleted in batches. */
export async function deleteAbandonedGuestCarts(em: EntityManager, before: Date, limit: number): Promise<number> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from ${T.carts} where customer_id is null and updated_at < ? order by updated_at limit ? for update skip locked`,
    [before, limit],
  );
  if (!rows.length) return 0;
  const ids = rows.map((r) => r.id);
  await em.execute(`delete from ${T.lines} where cart_id in (?)`, [ids]);
  await em.execute(`delete from ${T.carts} where id in (?)`, [ids]);
  return ids.length;
}
