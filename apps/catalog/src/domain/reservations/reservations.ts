import type { InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidParams, notFound } from '@storefront/errors';
import { Reservation } from '../../persistence/entities';
import {
  findReservation,
  commitActiveReservation,
  lockExpiredReservations,
  lockReservation,
  commitAndRecordHandled,
  reservationLines,
  reserveAtOnce,
  replaceReservationLines,
  reserveLines,
  type ReservationStatus,
} from '../../persistence/reservations.repository';
import { levelKey, lockLevels } from '../../persistence/stock.repository';
import type { Actor } from '../shared/actor';
import type { CatalogDeps } from '../deps';
import {
  assertSameLines,
  normalizeLines,
  parseReservationId,
  restockQuantities,
  type StockLineInput,
} from './reservation-lines';
import { checkLines, insufficientStock, planLines, shortages } from './reservation-plan';
import { findProducts } from '../../persistence/products.repository';
import { recordLevelChanges, recordLowStockEvents } from '../stock/stock-ledger';
import { parseReason } from '../stock/stock-math';

export interface ReservationView {
  id: string;
  status: ReservationStatus;
  createdAt: Date;
  expiresAt: Date;
  lines: StockLineInput[];
}

const SWEEP_BATCH = 50;

/** The level changes of taking each line's quantity (negative: giving it back) from its locked level; levels gone since are skipped. */
function takeFrom(locked: ReadonlyMap<string, number>, lines: readonly StockLineInput[]) {
  return lines
    .filter((l) => locked.has(levelKey(l.productId, l.variationId)))
    .map((l) => {
      const before = locked.get(levelKey(l.productId, l.variationId))!;
      return { productId: l.productId, variationId: l.variationId, before, after: before - l.quantity };
    });
}

/**
 * Stock held for a checkout. Reserving takes the units off the level at once
 * (movement `reserved`), so levels never promise the same unit twice;
 * releasing or expiring gives them back (`released` / `expired`); committing
 * only marks the sale final. Each operation is one transaction (or, for the
 * usual reservation, one statement) holding the reservation row and the
 * levels locked, levels always in the same order.
 */
export class Reservations {
  constructor(private readonly deps: CatalogDeps) {}

  async reserve(
    actor: Actor,
    input: { reservationId: string; lines: StockLineInput[]; ttlSeconds: number },
  ): Promise<{ reservation: ReservationView; replayed: boolean }> {
    const id = parseReservationId(input.reservationId);
    const lines = normalizeLines(input.lines);
    const ttlSeconds = this.ttl(input.ttlSeconds);
    // The usual reservation, nothing to judge, is one statement; a refusal, a retry of the id or a
    // low-stock crossing leave nothing behind and take the checked transaction below.
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
    const reservation = { id, now, expiresAt, userId: actor.userId, lines };
    const reserved = { reservation: { id, status: 'active' as const, createdAt: now, expiresAt, lines }, replayed: false };
    if (await reserveAtOnce(this.deps.db.em(), reservation, this.deps.config.LOW_STOCK_THRESHOLD)) return reserved;
    return this.deps.db.em().transactional(async (em) => {
      // One statement inserts the reservation and, when it is new, takes the units; a twin call
      // with the same id waits in it until the first one commits or rolls back.
      const taken = await reserveLines(em, reservation);
      if (!taken.created) return { reservation: await this.replay(em, id, lines), replayed: true };
      // What it took is checked now; a refusal rolls the whole reservation back.
      const planned = checkLines(lines, taken.products, taken.variations);
      const quantityOf = new Map(lines.map((l) => [levelKey(l.productId, l.variationId), l.quantity]));
      const changes = taken.levels.map((l) => {
        const before = l.after + (quantityOf.get(levelKey(l.productId, l.variationId)) ?? 0);
        return { productId: l.productId, variationId: l.variationId, before, after: l.after };
      });
      const missing = shortages(planned, new Map(changes.map((c) => [levelKey(c.productId, c.variationId), c.before])));
      if (missing.length) throw insufficientStock(missing);
      await recordLowStockEvents(em, this.deps, taken.products, changes);
      return reserved;
    });
  }

  /**
   * Payment went through: the units are sold. Idempotent. A reservation past its
   * expiry counts as expired even before the sweeper ran: committing it is 409
   * `shop_reservation_not_active`, unless the caller says the order was paid
   * (`orderPaid`): then the sale stands and the units are taken again.
   */
  async commit(reservationId: string, options: { orderPaid?: boolean } = {}): Promise<ReservationView> {
    // The usual case, an active reservation within its expiry, in one statement; the rest below.
    const committed = await commitActiveReservation(this.deps.db.reader, parseReservationId(reservationId), this.deps.now());
    if (committed) return { ...committed, status: 'committed' };
    return this.deps.db.em().transactional(async (em) => {
      const reservation = await this.lock(em, reservationId);
      const status = this.statusOf(reservation);
      if (status === 'active') this.settle(reservation, 'committed');
      else if (status !== 'committed') {
        if (!options.orderPaid) {
          throw conflict('shop_reservation_not_active', `The reservation is ${status}; its units went back to stock.`);
        }
        await this.commitPaid(em, reservation);
      }
      return this.view(em, reservation);
    });
  }

  /**
   * orders.order_paid (inside the consumer's transaction): the order's
   * reservation becomes committed, once. One that expired or was released
   * before the payment takes its units again (movement `order_paid`): the
   * sale happened, even if the level goes below zero.
   */
  async commitPaidOrder(em: EntityManager, reservationId: string): Promise<string> {
    if (!reservationId) return 'no_reservation';
    const reservation = await lockReservation(em, reservationId);
    if (!reservation) return 'unknown_reservation';
    if (reservation.status === 'committed') return 'already_committed';
    const outcome = reservation.status === 'active' ? 'committed' : `committed_after_${this.statusOf(reservation)}`;
    await this.commitPaid(em, reservation);
    await em.flush();
    return outcome;
  }

  /**
   * orders.order_paid's shortcut (no transaction): commits an active
   * reservation (as commitPaidOrder does) or finds it committed (the saga's
   * CommitReservation came first), recording the event as handled in the same
   * statement; false for an expired or released one (the consumer runs
   * commitPaidOrder, which takes the units again).
   */
  commitForPaidEvent(reservationId: string, inbox: InboxKey): Promise<boolean> {
    return commitAndRecordHandled(this.deps.db.reader, reservationId, this.deps.now(), inbox);
  }

  /** Commits for a paid order whatever the reservation's state (not yet committed). */
  private async commitPaid(em: EntityManager, reservation: Reservation): Promise<void> {
    if (reservation.status !== 'active') {
      // Expired or released: the units went back; the sale takes them again.
      const lines = restockQuantities(await reservationLines(em, reservation.id), []);
      const locked = await lockLevels(em, lines);
      const changes = takeFrom(locked, lines);
      const context = { userId: 0, reason: 'order_paid', note: '', reservationId: reservation.id };
      await recordLevelChanges(em, this.deps, changes, context);
    }
    this.settle(reservation, 'committed');
  }

  /** Payment failed or the checkout was abandoned: the units go back. Idempotent. */
  async release(actor: Actor, reservationId: string, reason: string): Promise<ReservationView> {
    const movementReason = parseReason(reason, 'released');
    return this.deps.db.em().transactional(async (em) => {
      const reservation = await this.lock(em, reservationId);
      if (reservation.status === 'committed') {
        throw conflict('shop_reservation_committed', 'The reservation is committed; cancel its order to restock.');
      }
      if (reservation.status === 'active') {
        // Past its expiry it counts as expired: the units go back as the sweeper would give them.
        const expired = this.statusOf(reservation) === 'expired';
        const lines = await reservationLines(em, reservation.id);
        const reason = expired ? 'expired' : movementReason;
        await this.giveBack(em, reservation.id, restockQuantities(lines, []), reason, expired ? 0 : actor.userId);
        this.settle(reservation, expired ? 'expired' : 'released');
      }
      return this.view(em, reservation);
    });
  }

  /** Gives back the units of active reservations past their expiry; returns how many it expired. */
  async sweepExpired(): Promise<number> {
    let expired = 0;
    for (;;) {
      const batch = await this.deps.db.em().transactional((em) => this.expireBatch(em));
      expired += batch;
      if (batch < SWEEP_BATCH) return expired;
    }
  }

  private async expireBatch(em: EntityManager): Promise<number> {
    const ids = await lockExpiredReservations(em, this.deps.now(), SWEEP_BATCH);
    if (!ids.length) return 0;
    const reservations = await em.find(Reservation, { id: { $in: ids } });
    const linesOf = new Map<string, StockLineInput[]>();
    for (const r of reservations) linesOf.set(r.id, restockQuantities(await reservationLines(em, r.id), []));
    // Every level of the batch is locked at once, in the global order, before any is touched.
    await lockLevels(em, [...linesOf.values()].flat());
    for (const reservation of reservations) {
      await this.giveBack(em, reservation.id, linesOf.get(reservation.id)!, 'expired', 0);
      this.settle(reservation, 'expired');
    }
    return ids.length;
  }

  /**
   * orders.order_cancelled (failed, deleted): restock what the order's
   * reservation took, once. The consumer's inbox drops redeliveries; the
   * reservation status guards against a second event for the same order; an
   * event that happened before the reservation was renewed (the failed order
   * paid again, the event delivered late) describes the units given back
   * before, not the ones the renewal took.
   */
  async restockCancelledOrder(
    em: EntityManager,
    reservationId: string,
    orderLines: readonly StockLineInput[],
    reason: 'order_cancelled' | 'order_failed' | 'order_deleted',
    occurredAt: Date,
  ): Promise<string> {
    if (!reservationId) return 'no_reservation';
    const reservation = await lockReservation(em, reservationId);
    if (!reservation) return 'unknown_reservation';
    if (reservation.renewedAt && occurredAt < reservation.renewedAt) return 'renewed_since';
    if (reservation.status !== 'active' && reservation.status !== 'committed') return `already_${reservation.status}`;
    const lines = await reservationLines(em, reservation.id);
    const restock = restockQuantities(lines, reservation.status === 'active' ? [] : orderLines);
    await this.giveBack(em, reservation.id, restock, reason, 0);
    this.settle(reservation, 'released');
    await em.flush();
    return 'restocked';
  }

  private async giveBack(
    em: EntityManager,
    reservationId: string,
    lines: readonly StockLineInput[],
    reason: string,
    userId: number,
  ) {
    // Levels of products deleted since are gone: nothing to give back to.
    const locked = await lockLevels(em, lines);
    const changes = takeFrom(locked, lines.map((l) => ({ ...l, quantity: -l.quantity })));
    await recordLevelChanges(em, this.deps, changes, { userId, reason, note: '', reservationId });
  }

  private async replay(em: EntityManager, id: string, lines: readonly StockLineInput[]): Promise<ReservationView> {
    const reservation = await findReservation(em, id);
    if (!reservation) throw conflict('shop_reservation_conflict', 'The reservation is being changed; retry.');
    assertSameLines(await reservationLines(em, id), lines);
    return this.view(em, reservation);
  }

  /**
   * An order's lines edited (orders calls before storing the edit): its
   * reservation now holds exactly `lines`, idempotently. Units it holds
   * (active or committed) follow the change: more are taken, checked (422
   * `shop_stock_insufficient` past the stock unless backorders), fewer are
   * given back (movements `order_edited`). A released or expired one only
   * records the lines, which paying the order again takes.
   */
  async adjust(actor: Actor, input: { reservationId: string; lines: StockLineInput[] }): Promise<ReservationView> {
    const lines = input.lines.length ? normalizeLines(input.lines) : [];
    return this.deps.db.em().transactional(async (em) => {
      const reservation = await this.lock(em, input.reservationId);
      // Products deleted since take nothing (their levels are gone with them).
      const products = new Map((await findProducts(em, [...new Set(lines.map((l) => l.productId))])).map((p) => [p.id, p]));
      const next = lines.map((l) => ({ ...l, deducted: Boolean(products.get(l.productId)?.manageStock) }));
      if (reservation.status === 'active' || reservation.status === 'committed') {
        const held = new Map(restockQuantities(await reservationLines(em, reservation.id), []).map((l) => [levelKey(l.productId, l.variationId), l]));
        const wanted = new Map(next.filter((l) => l.deducted).map((l) => [levelKey(l.productId, l.variationId), l]));
        const deltas = [...new Set([...held.keys(), ...wanted.keys()])]
          .map((key) => {
            const line = wanted.get(key) ?? held.get(key)!;
            return { productId: line.productId, variationId: line.variationId, delta: (wanted.get(key)?.quantity ?? 0) - (held.get(key)?.quantity ?? 0) };
          })
          .filter((d) => d.delta !== 0);
        const locked = await lockLevels(em, deltas.map((d) => ({ productId: d.productId, variationId: d.variationId, quantity: Math.abs(d.delta) })));
        const more = deltas
          .filter((d) => d.delta > 0)
          .map((d) => ({ productId: d.productId, variationId: d.variationId, quantity: d.delta, product: products.get(d.productId)! }));
        const missing = shortages(more, locked);
        if (missing.length) throw insufficientStock(missing);
        const changes = takeFrom(locked, deltas.map((d) => ({ productId: d.productId, variationId: d.variationId, quantity: d.delta })));
        await recordLevelChanges(em, this.deps, changes, { userId: actor.userId, reason: 'order_edited', note: '', reservationId: reservation.id });
      }
      await replaceReservationLines(em, reservation.id, next);
      return {
        id: reservation.id,
        status: this.statusOf(reservation),
        createdAt: reservation.createdAt,
        expiresAt: reservation.expiresAt,
        lines: next.map(({ productId, variationId, quantity }) => ({ productId, variationId, quantity })),
      };
    });
  }

  /**
   * A failed order paid again: a released or expired reservation takes its
   * own lines' units again, checked like a new one (422
   * `shop_stock_insufficient`), with a new expiry. An active one only gets
   * the later expiry; a committed one is left as it is (`renewed` false).
   */
  async renew(actor: Actor, input: { reservationId: string; ttlSeconds: number }): Promise<{ reservation: ReservationView; renewed: boolean }> {
    const expiresAt = new Date(this.deps.now().getTime() + this.ttl(input.ttlSeconds) * 1000);
    return this.deps.db.em().transactional(async (em) => {
      const reservation = await this.lock(em, input.reservationId);
      if (reservation.status === 'committed') return { reservation: await this.view(em, reservation), renewed: false };
      // An active one may still have its order's failure on the way (released when it arrives): marked
      // renewed too, so that late event leaves the units to the new payment.
      reservation.renewedAt = this.deps.now();
      if (reservation.status === 'active') {
        if (reservation.expiresAt < expiresAt) reservation.expiresAt = expiresAt;
        return { reservation: await this.view(em, reservation), renewed: false };
      }
      const take = restockQuantities(await reservationLines(em, reservation.id), []);
      const locked = await lockLevels(em, take);
      const missing = shortages(await planLines(em, take), locked);
      if (missing.length) throw insufficientStock(missing);
      const changes = takeFrom(locked, take);
      await recordLevelChanges(em, this.deps, changes, { userId: actor.userId, reason: 'reserved', note: '', reservationId: reservation.id });
      reservation.status = 'active';
      reservation.expiresAt = expiresAt;
      reservation.settledAt = null;
      return { reservation: await this.view(em, reservation), renewed: true };
    });
  }

  private async lock(em: EntityManager, reservationId: string): Promise<Reservation> {
    const reservation = await lockReservation(em, parseReservationId(reservationId));
    if (!reservation) throw notFound('shop_reservation_not_found', 'No reservation with this id.');
    return reservation;
  }

  /** The status as callers must see it: an active reservation past `expires_at` is expired. */
  private statusOf(reservation: Reservation): ReservationStatus {
    const status = reservation.status as ReservationStatus;
    return status === 'active' && reservation.expiresAt.getTime() <= this.deps.now().getTime() ? 'expired' : status;
  }

  private settle(reservation: Reservation, status: ReservationStatus): void {
    reservation.status = status;
    reservation.settledAt = this.deps.now();
  }

  private async view(em: EntityManager, reservation: Reservation): Promise<ReservationView> {
    const lines = await reservationLines(em, reservation.id);
    return {
      id: reservation.id,
      status: this.statusOf(reservation),
      createdAt: reservation.createdAt,
      expiresAt: reservation.expiresAt,
      lines: lines.map((l) => ({ productId: l.productId, variationId: l.variationId, quantity: l.quantity })),
    };
  }

  private ttl(requested: number): number {
    const { RESERVATION_TTL_SECONDS, RESERVATION_MAX_TTL_SECONDS } = this.deps.config;
    if (!requested) return RESERVATION_TTL_SECONDS;
    if (!Number.isSafeInteger(requested) || requested < 1 || requested > RESERVATION_MAX_TTL_SECONDS) {
      throw invalidParams({ ttl_seconds: `ttl_seconds must be between 1 and ${RESERVATION_MAX_TTL_SECONDS}.` });
    }
    return requested;
  }
}
