import type { catalog } from '@storefront/proto/catalog';
import type { ReservationView } from '../domain/reservations/reservations';
import type { LevelView } from '../domain/stock/stock';
import type { StockMovement } from '../persistence/entities';

export function toProtoMovement(m: StockMovement): catalog.StockMovement {
  return {
    id: m.id,
    productId: m.productId,
    variationId: m.variationId,
    userId: m.userId,
    date: m.createdAt,
    quantityBefore: m.quantityBefore,
    quantityAfter: m.quantityAfter,
    delta: m.delta,
    reason: m.reason,
    note: m.note,
    reservationId: m.reservationId ?? '',
  };
}

export function toProtoLevel(l: LevelView): catalog.StockLevel {
  return {
    productId: l.productId,
    variationId: l.variationId,
    manageStock: l.manageStock,
    stockQuantity: l.quantity ?? undefined,
    stockStatus: l.status,
    backordersAllowed: l.backordersAllowed,
  };
}

export function toProtoReservation(r: ReservationView): catalog.Reservation {
  return { id: r.id, status: r.status, createdAt: r.createdAt, expiresAt: r.expiresAt, lines: r.lines };
}
