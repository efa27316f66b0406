import type { EntityManager } from '@mikro-orm/postgresql';
import { StockMovement } from './entities';
import { T, tuplePlaceholders } from './sql';

export interface LevelKey {
  productId: number;
  variationId: number;
}

export interface Level extends LevelKey {
  quantity: number;
}

export const levelKey = (productId: number, variationId: number) => `${productId}:${variationId}`;

/** Sorts by (product, variation): every transaction locks levels in this one order, so none can deadlock another. */
export function sortLevelKeys<K extends LevelKey>(keys: readonly K[]): K[] {
  return [...keys].sort((a, b) => a.productId - b.productId || a.variationId - b.variationId);
}

/** Creates the missing level rows (at 0) so they exist to be locked. */
export async function ensureLevelRows(em: EntityManager, keys: readonly LevelKey[], now: Date): Promise<void> {
  if (!keys.length) return;
  const sorted = sortLevelKeys(keys);
  await em.execute(
    `insert into ${T.stockLevels} (product_id, variation_id, quantity, updated_at)
     values ${tuplePlaceholders(sorted.length, 4)} on conflict do nothing`,
    sorted.flatMap((k) => [k.productId, k.variationId, 0, now]),
  );
}

/** Row-locks the levels (in key order) for the rest of the transaction and returns them by levelKey. */
export async function lockLevels(em: EntityManager, keys: readonly LevelKey[]): Promise<Map<string, number>> {
  if (!keys.length) return new Map();
  const sorted = sortLevelKeys(keys);
  const rows = await em.execute<{ product_id: number; variation_id: number; quantity: number }[]>(
    `select product_id, variation_id, quantity from ${T.stockLevels}
     where (product_id, variation_id) in (${tuplePlaceholders(sorted.length, 2)})
     order by product_id, variation_id for update`,
    sorted.flatMap((k) => [k.productId, k.variationId]),
  );
  return new Map(rows.map((r) => [levelKey(r.product_id, r.variation_id), Number(r.quantity)]));
}

export async function writeLevels(em: EntityManager, levels: readonly Level[], now: Date): Promise<void> {
  if (!levels.length) return;
  await em.execute(
    `update ${T.stockLevels} as l set quantity = v.quantity, updated_at = ?
     from (values ${tuplePlaceholders(levels.length, 3)}) as v(product_id, variation_id, quantity)
     where l.product_id = v.product_id and l.variation_id = v.variation_id`,
    [now, ...levels.flatMap((l) => [l.productId, l.variationId, l.quantity])],
  );
}

/** Current levels of every product/variation of these products (no lock). */
export async function levelsOfProducts(em: EntityManager, productIds: readonly number[]): Promise<Level[]> {
  if (!productIds.length) return [];
  const rows = await em.execute<{ product_id: number; variation_id: number; quantity: number }[]>(
    `select product_id, variation_id, quantity from ${T.stockLevels} where product_id in (?)`,
    [productIds],
  );
  return rows.map((r) => ({
    productId: Number(r.product_id),
    variationId: Number(r.variation_id),
    quantity: Number(r.quantity),
  }));
}

/** Drops the level rows of a product that are not among `keepVariationIds` (removed variations). */
export async function deleteLevelsExcept(
  em: EntityManager,
  productId: number,
  keepVariationIds: readonly number[],
): Promise<void> {
  if (keepVariationIds.length) {
    await em.execute(`delete from ${T.stockLevels} where product_id = ? and variation_id not in (?)`, [
      productId,
      keepVariationIds,
    ]);
  } else {
    await em.execute(`delete from ${T.stockLevels} where product_id = ?`, [productId]);
  }
}

export interface NewMovement extends LevelKey {
  userId: number;
  quantityBefore: number;
  quantityAfter: number;
  reason: string;
  note: string;
  reservationId: string | null;
}

export async function insertMovements(
  em: EntityManager,
  movements: readonly NewMovement[],
  now: Date,
): Promise<StockMovement[]> {
  if (!movements.length) return [];
  const rows = await em.execute(
    `insert into ${T.stockMovements}
       (product_id, variation_id, user_id, created_at, quantity_before, quantity_after, delta, reason, note, reservation_id)
     values ${tuplePlaceholders(movements.length, 10)} returning *`,
    movements.flatMap((m) => [
      m.productId,
      m.variationId,
      m.userId,
      now,
      m.quantityBefore,
      m.quantityAfter,
      m.quantityAfter - m.quantityBefore,
      m.reason,
      m.note,
      m.reservationId,
    ]),
  );
  return rows.map((row) => em.map(StockMovement, row));
}

export async function listMovements(
  em: EntityManager,
  key: LevelKey,
  page: { page: number; perPage: number },
): Promise<{ movements: StockMovement[]; total: number }> {
  const [{ count }] = await em.execute<{ count: string }[]>(
    `select count(*) as count from ${T.stockMovements} where product_id = ? and variation_id = ?`,
    [key.productId, key.variationId],
  );
  const rows = await em.execute(
    `select * from ${T.stockMovements} where product_id = ? and variation_id = ? order by id desc limit ? offset ?`,
    [key.productId, key.variationId, page.perPage, (page.page - 1) * page.perPage],
  );
  return { movements: rows.map((row) => em.map(StockMovement, row)), total: Number(count) };
}
