import { catalog } from '@storefront/proto/catalog';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CatalogDomain } from '../domain';
import { toProtoLevel, toProtoMovement, toProtoReservation } from './stock.mappers';

export function stockHandlers(domain: CatalogDomain): ServiceHandlers<typeof catalog.StockServiceService> {
  const { stock, reservations } = domain;
  return {
    async adjustStock(req, caller) {
      const { level, movement } = await stock.adjust(caller, req);
      return { level: toProtoLevel(level), movement: toProtoMovement(movement) };
    },
    async listStockMovements(req, caller) {
      const { movements, total, perPage } = await stock.movements(caller, req);
      return { movements: movements.map(toProtoMovement), total, totalPages: Math.ceil(total / perPage) };
    },
    async reserveStock(req, caller) {
      const { reservation, replayed } = await reservations.reserve(caller, req);
      return { reservation: toProtoReservation(reservation), replayed };
    },
    async renewReservation(req, caller) {
      const { reservation, renewed } = await reservations.renew(caller, req);
      return { reservation: toProtoReservation(reservation), renewed };
    },
    async adjustReservation(req, caller) {
      return { reservation: toProtoReservation(await reservations.adjust(caller, req)) };
    },
    async commitReservation(req) {
      return { reservation: toProtoReservation(await reservations.commit(req.reservationId, { orderPaid: req.orderPaid })) };
    },
    async releaseReservation(req, caller) {
      return { reservation: toProtoReservation(await reservations.release(caller, req.reservationId, req.reason)) };
    },
    async checkAvailability(req) {
      const lines = await stock.availability(req.lines);
      return { lines, allSufficient: lines.every((l) => l.sufficient) };
    },
  };
}
