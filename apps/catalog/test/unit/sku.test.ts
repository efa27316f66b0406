import { describe, expect, it } from '@jest/globals';
import { asciiWords, categoryCode, nameCode, nextSku, skuPrefix } from '../../src/domain/inventory/sku';

describe('SKU derivation', () => {
  it('reduces names to uppercase ASCII words', () => {
    expect(asciiWords('Crème brûlée, 2x!')).toEqual(['CREME', 'BRULEE', '2X']);
    expect(asciiWords('  ')).toEqual([]);
  });

  it('builds CAT-NAME prefixes', () => {
    expect(categoryCode('Home & Kitchen')).toBe('HOM');
    expect(nameCode('Organic Cotton T-Shirt')).toBe('ORGACOTT');
    expect(nameCode('Mug')).toBe('MUG');
    expect(nameCode('!!!')).toBe('ITEM');
    expect(skuPrefix('Organic Cotton T-Shirt', 'Clothing')).toBe('CLO-ORGACOTT');
    expect(skuPrefix('Mug', '')).toBe('MUG');
  });

  it('numbers the series one above the highest in use', () => {
    expect(nextSku('CLO-MUG', [])).toBe('CLO-MUG-0001');
    expect(nextSku('CLO-MUG', ['CLO-MUG-0001', 'clo-mug-0009', 'CLO-MUG-X', 'CLO-MUGS-0050'])).toBe('CLO-MUG-0010');
    expect(nextSku('A', ['A-9999'])).toBe('A-10000');
  });
});
