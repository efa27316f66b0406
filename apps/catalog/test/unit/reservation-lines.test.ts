import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import type { ReservationLine } from '../../src/persistence/entities';
import {
  assertSameLines,
  normalizeLines,
  parseReservationId,
  restockQuantities,
} from '../../src/domain/reservations/reservation-lines';

const stored = (productId: number, variationId: number, quantity: number, deducted = true) =>
  ({ reservationId: 'r', productId, variationId, quantity, deducted }) as ReservationLine;

describe('reservation lines', () => {
  it('merges lines of the same item and sorts them in lock order', () => {
    expect(
      normalizeLines([
        { productId: 9, variationId: 0, quantity: 1 },
        { productId: 3, variationId: 2, quantity: 1 },
        { productId: 9, variationId: 0, quantity: 2 },
        { productId: 3, variationId: 1, quantity: 4 },
      ]),
    ).toEqual([
      { productId: 3, variationId: 1, quantity: 4 },
      { productId: 3, variationId: 2, quantity: 1 },
      { productId: 9, variationId: 0, quantity: 3 },
    ]);
  });

  it('rejects empty, oversized and non-positive requests', () => {
    expect(() => normalizeLines([])).toThrow(DomainError);
    expect(() => normalizeLines([{ productId: 1, variationId: 0, quantity: 0 }])).toThrow(DomainError);
    expect(() => normalizeLines([{ productId: 0, variationId: 0, quantity: 1 }])).toThrow(DomainError);
    expect(() =>
      normalizeLines(Array.from({ length: 101 }, (_, i) => ({ productId: i + 1, variationId: 0, quantity: 1 }))),
    ).toThrow(DomainError);
    expect(() => parseReservationId('has space')).toThrow(DomainError);
    expect(parseReservationId('order:42_a-b.c')).toBe('order:42_a-b.c');
  });

  it('accepts a retry only for the same lines', () => {
    expect(() => assertSameLines([stored(1, 0, 2)], [{ productId: 1, variationId: 0, quantity: 2 }])).not.toThrow();
    expect(() => assertSameLines([stored(1, 0, 2)], [{ productId: 1, variationId: 0, quantity: 3 }])).toThrow(
      DomainError,
    );
  });

  it('restocks what was deducted, capped by what the cancelled order still held', () => {
    const lines = [stored(1, 0, 3), stored(2, 0, 2), stored(3, 0, 5, false)];
    expect(restockQuantities(lines, [])).toEqual([
      { productId: 1, variationId: 0, quantity: 3 },
      { productId: 2, variationId: 0, quantity: 2 },
    ]);
    expect(
      restockQuantities(lines, [
        { productId: 1, variationId: 0, quantity: 1 },
        { productId: 3, variationId: 0, quantity: 5 },
      ]),
    ).toEqual([{ productId: 1, variationId: 0, quantity: 1 }]);
  });
});
