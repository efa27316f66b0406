import type { EntityManager } from '@mikro-orm/postgresql';
import type { PostListQuery } from './post-list-query';
import { Coupon } from './entities';
import { postOrder, postWhere } from './post-list';
import { T } from './sql';

export async function listCoupons(em: EntityManager, q: PostListQuery): Promise<{ coupons: Coupon[]; total: number }> {
  // Coupons take no slug filter (spec 1: the product list minus taxonomy filters and slug).
  const where = postWhere({ ...q, slugs: [] });
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from ${T.coupons} ${where.sql}`,
    where.params,
  );
  const order = postOrder(q);
  const rows = await em.execute(`select * from ${T.coupons} ${where.sql} ${order.sql} limit ? offset ?`, [
    ...where.params,
    ...order.params,
    q.perPage,
    (q.page - 1) * q.perPage,
  ]);
  return { coupons: rows.map((row) => em.map(Coupon, row)), total: Number(count) };
}

export function findCoupon(em: EntityManager, id: number): Promise<Coupon | null> {
  return em.findOne(Coupon, { id });
}

/** The published coupon with this code, case-insensitively. */
export async function findPublishedByCode(em: EntityManager, code: string): Promise<Coupon | null> {
  const rows = await em.execute(`select * from ${T.coupons} where lower(title) = ? and status = 'publish' limit 1`, [
    code.toLowerCase(),
  ]);
  return rows[0] ? em.map(Coupon, rows[0]) : null;
}

/** Another untrashed coupon already has this code (case-insensitive). */
export async function codeTaken(em: EntityManager, code: string, exceptId: number): Promise<boolean> {
  const rows = await em.execute(
    `select 1 from ${T.coupons} where lower(title) = ? and status <> 'trash' and id <> ? limit 1`,
    [code.toLowerCase(), exceptId],
  );
  return rows.length > 0;
}

export async function deleteCoupon(em: EntityManager, id: number): Promise<void> {
  await em.execute(`delete from ${T.coupons} where id = ?`, [id]);
}
