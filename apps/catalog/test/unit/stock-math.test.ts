import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@storefront/errors';
import {
  canTake,
  combinedStockStatus,
  crossesLowStock,
  levelAfter,
  parseStockAction,
  requireStockQuantity,
  stockStatusOf,
} from '../../src/domain/stock/stock-math';

describe('stock math', () => {
  it('applies add, remove and set', () => {
    expect(levelAfter(5, 'add', 3, false)).toBe(8);
    expect(levelAfter(5, 'remove', 5, false)).toBe(0);
    expect(levelAfter(5, 'set', 2, false)).toBe(2);
  });

  it('refuses to go below zero without backorders', () => {
    const err = (() => {
      try {
        levelAfter(2, 'remove', 3, false);
      } catch (e) {
        return e as DomainError;
      }
    })();
    expect([err?.code, err?.status, err?.data]).toEqual([
      'shop_stock_insufficient',
      422,
      { available: 2, requested: 3 },
    ]);
    expect(levelAfter(2, 'remove', 3, true)).toBe(-1);
  });

  it('validates actions and quantities', () => {
    expect(() => parseStockAction('steal')).toThrow(DomainError);
    expect(() => requireStockQuantity('quantity', -1)).toThrow(DomainError);
    expect(() => requireStockQuantity('quantity', 1.5)).toThrow(DomainError);
    expect(() => requireStockQuantity('quantity', 2 ** 40)).toThrow(DomainError);
    expect(requireStockQuantity('quantity', 0)).toBe(0);
  });

  it('derives stock statuses', () => {
    expect([stockStatusOf(1, false), stockStatusOf(0, false), stockStatusOf(0, true), stockStatusOf(-2, true)]).toEqual(
      ['instock', 'outofstock', 'onbackorder', 'onbackorder'],
    );
    expect(combinedStockStatus(['outofstock', 'instock'])).toBe('instock');
    expect(combinedStockStatus(['outofstock', 'onbackorder'])).toBe('onbackorder');
    expect(combinedStockStatus([])).toBe('outofstock');
  });

  it('detects a downward crossing of the low-stock threshold once', () => {
    expect(crossesLowStock(5, 3, 3)).toBe(true);
    expect(crossesLowStock(3, 2, 3)).toBe(false);
    expect(crossesLowStock(2, 5, 3)).toBe(false);
    expect(crossesLowStock(4, 4, 3)).toBe(false);
  });

  it('decides whether units can be taken', () => {
    expect([canTake(3, 3, false), canTake(2, 3, false), canTake(0, 3, true)]).toEqual([true, false, true]);
  });
});
