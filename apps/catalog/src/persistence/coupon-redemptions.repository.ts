import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  RedeemableCoupon,
  RedemptionHolder,
  RedemptionRecord,
  RedemptionSelector,
  RedemptionStatus,
} from './redemption-types';
import { T, tuplePlaceholders } from './sql';

/** Serializes every call for one redemption key until the transaction ends (twin retries wait here). */
export async function lockRedemptionKey(em: EntityManager, key: string): Promise<void> {
  await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 7401)) as locked`, [`coupon-redemption:${key}`]);
}

export async function redemptionsByKey(em: EntityManager, key: string): Promise<RedemptionRecord[]> {
  const rows = await em.execute<{ coupon_id: number; code: string; status: RedemptionStatus }[]>(
    `select coupon_id, code, status from ${T.couponRedemptions} where redemption_key = ? order by id`,
    [key],
  );
  return rows.map((r) => ({ couponId: r.coupon_id, code: r.code, status: r.status }));
}

export async function deleteRedemptionsOfKey(em: EntityManager, key: string): Promise<void> {
  await em.execute(`delete from ${T.couponRedemptions} where redemption_key = ?`, [key]);
}

/** Untrashed coupons with these (lower-cased) codes. */
export async function couponsByCodes(em: EntityManager, codes: readonly string[]): Promise<RedeemableCoupon[]> {
  if (!codes.length) return [];
  const rows = await em.execute<{ id: number; code: string; status: string }[]>(
    `select id, lower(title) as code, status from ${T.coupons}
     where lower(title) in (${codes.map(() => '?').join(', ')}) and status <> 'trash'`,
    [...codes],
  );
  return rows.map((r) => ({ id: r.id, code: r.code, status: r.status }));
}

/**
 * Counts one use when the coupon is under its usage_limit (null or 0: unlimited),
 * in one conditional update that also locks the coupon row until the transaction
 * ends. Null when the limit is reached; else the per-user limit (null/0: none).
 */
export async function takeCouponUse(
  em: EntityManager,
  couponId: number,
): Promise<{ usageLimitPerUser: number | null } | null> {
  const rows = await em.execute<{ usage_limit_per_user: number | null }[]>(
    `update ${T.coupons} set usage_count = usage_count + 1
     where id = ? and (usage_limit is null or usage_limit = 0 or usage_count < usage_limit)
     returning usage_limit_per_user`,
    [couponId],
  );
  return rows[0] ? { usageLimitPerUser: rows[0].usage_limit_per_user } : null;
}

/** Active redemptions of a coupon by this customer id, or by this email (guests and customers alike). */
export async function holderUses(em: EntityManager, couponId: number, holder: RedemptionHolder): Promise<number> {
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from ${T.couponRedemptions}
     where coupon_id = ? and status = 'active'
       and ((customer_id = ? and customer_id > 0) or (email = ? and email <> ''))`,
    [couponId, holder.customerId, holder.email],
  );
  return Number(count);
}

export interface NewRedemption {
  couponId: number;
  code: string;
}

export async function insertRedemptions(
  em: EntityManager,
  context: { redemptionKey: string; orderId: number; reservationId: string; holder: RedemptionHolder; now: Date },
  lines: readonly NewRedemption[],
): Promise<void> {
  if (!lines.length) return;
  const { redemptionKey, orderId, reservationId, holder, now } = context;
  await em.execute(
    `insert into ${T.couponRedemptions}
       (redemption_key, coupon_id, code, order_id, reservation_id, customer_id, email, status, created_at)
     values ${tuplePlaceholders(lines.length, 9)}`,
    lines.flatMap((l) => [
      redemptionKey,
      l.couponId,
      l.code,
      orderId,
      reservationId,
      holder.customerId,
      holder.email,
      'active',
      now,
    ]),
  );
}

function selectorSql(selector: RedemptionSelector): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (selector.redemptionKey) {
    parts.push('redemption_key = ?');
    params.push(selector.redemptionKey);
  }
  if (selector.orderId) {
    parts.push('order_id = ?');
    params.push(selector.orderId);
  }
  if (selector.reservationId) {
    parts.push('reservation_id = ?');
    params.push(selector.reservationId);
  }
  if (!parts.length) return { sql: 'false', params };
  if (selector.madeBefore) params.push(selector.madeBefore);
  return { sql: `(${parts.join(' or ')})${selector.madeBefore ? ' and created_at < ?' : ''}`, params };
}

/**
 * Marks the selected active redemptions released and gives their uses back to
 * the coupons (rows locked in coupon id order). Returns how many were released.
 */
export async function releaseRedemptions(em: EntityManager, selector: RedemptionSelector, now: Date): Promise<number> {
  const where = selectorSql(selector);
  const released = await em.execute<{ coupon_id: number }[]>(
    `update ${T.couponRedemptions} set status = 'released', released_at = ?
     where status = 'active' and ${where.sql} returning coupon_id`,
    [now, ...where.params],
  );
  const perCoupon = new Map<number, number>();
  for (const r of released) perCoupon.set(r.coupon_id, (perCoupon.get(r.coupon_id) ?? 0) + 1);
  for (const couponId of [...perCoupon.keys()].sort((a, b) => a - b)) {
    await em.execute(`update ${T.coupons} set usage_count = greatest(usage_count - ?, 0) where id = ?`, [
      perCoupon.get(couponId)!,
      couponId,
    ]);
  }
  return released.length;
}

/** Links the redemptions made with an order's reservation to the order (order_placed / order_paid). */
export async function attachOrderToRedemptions(em: EntityManager, reservationId: string, orderId: number): Promise<number> {
  if (!reservationId || !orderId) return 0;
  const rows = await em.execute<{ id: number }[]>(
    `update ${T.couponRedemptions} set order_id = ? where reservation_id = ? and order_id = 0 returning id`,
    [orderId, reservationId],
  );
  return rows.length;
}
