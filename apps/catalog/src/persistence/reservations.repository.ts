import type { EntityManager } from '@mikro-orm/postgresql';
import { Reservation, ReservationLine } from './entities';
import { T, tuplePlaceholders } from './sql';

export type ReservationStatus = 'active' | 'committed' | 'released' | 'expired';

/** Inserts the reservation unless its id exists; false means a retry (or a concurrent twin, now committed). */
export async function insertReservation(em: EntityManager, id: string, now: Date, expiresAt: Date): Promise<boolean> {
  const rows = await em.execute(
    `insert into ${T.reservations} (id, status, created_at, expires_at) values (?, 'active', ?, ?)
     on conflict do nothing returning id`,
    [id, now, expiresAt],
  );
  return rows.length > 0;
}

/** The reservation, row-locked until the transaction ends (serializes commit/release/sweep). */
export async function lockReservation(em: EntityManager, id: string): Promise<Reservation | null> {
  const rows = await em.execute(`select * from ${T.reservations} where id = ? for update`, [id]);
  return rows[0] ? em.map(Reservation, rows[0]) : null;
}

export function findReservation(em: EntityManager, id: string): Promise<Reservation | null> {
  return em.findOne(Reservation, { id });
}

export function reservationLines(em: EntityManager, id: string): Promise<ReservationLine[]> {
  return em.find(ReservationLine, { reservationId: id }, { orderBy: { productId: 'asc', variationId: 'asc' } });
}

export interface NewReservationLine {
  productId: number;
  variationId: number;
  quantity: number;
  deducted: boolean;
}

export async function insertReservationLines(
  em: EntityManager,
  id: string,
  lines: readonly NewReservationLine[],
): Promise<void> {
  if (!lines.length) return;
  await em.execute(
    `insert into ${T.reservationLines} (reservation_id, product_id, variation_id, quantity, deducted)
     values ${tuplePlaceholders(lines.length, 5)}`,
    lines.flatMap((l) => [id, l.productId, l.variationId, l.quantity, l.deducted]),
  );
}

/** Active reservations past their expiry that no other sweeper holds, locked for this transaction. */
export async function lockExpiredReservations(em: EntityManager, now: Date, limit: number): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `select id from ${T.reservations} where status = 'active' and expires_at < ?
     order by expires_at limit ? for update skip locked`,
    [now, limit],
  );
  return rows.map((r) => r.id);
}
