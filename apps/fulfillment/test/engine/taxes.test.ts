import { describe, expect, it } from '@jest/globals';
import { flatRate, line, regionsOf, request, run, snapshotOf, taxRate, zone } from './fixtures';

// Every expected figure is worked out by hand in the comment beside it.

const everywhere = (rates: Parameters<typeof snapshotOf>[1], shippingCost = 10) =>
  snapshotOf([zone(1, { regions: [], methods: [flatRate(1, shippingCost)] })], rates);

describe('quote engine: taxes', () => {
  it('applies a compound rate on top of the simple one, on items and on shipping', () => {
    const snapshot = everywhere([
      taxRate(1, { rate: '10.0000', name: 'Simple', priority: 1 }),
      taxRate(2, { rate: '5.0000', name: 'Compound', priority: 2, compound: true }),
    ]);
    const q = run(snapshot, request({ to: { country: 'CA' }, lines: [line('a', '100.00')] }));
    // items: simple 100.00 x 10% = 10.00; compound (100.00 + 10.00) x 5% = 5.50
    // shipping 10.00: simple 1.00; compound (10.00 + 1.00) x 5% = 0.55
    expect(q.taxLines).toEqual([
      [1, '10.00', '1.00'],
      [2, '5.50', '0.55'],
    ]);
    expect(q.rates).toEqual([['flat_rate:1', '10.00', '1.55']]);
    // 100.00 + 15.50 + 10.00 + 1.55
    expect(q.totals).toEqual({
      itemsTotal: '100.00',
      itemsTax: '15.50',
      itemsSubtotalTax: '15.50',
      shippingTotal: '10.00',
      shippingTax: '1.55',
      taxTotal: '17.05',
      total: '127.05',
    });
  });

  it('also totals the tax of the lines before discounts (a cart subtotal net of the tax its prices include)', () => {
    const snapshot = everywhere([
      taxRate(1, { rate: '10.0000', name: 'Simple', priority: 1 }),
      taxRate(2, { rate: '5.0000', name: 'Compound', priority: 2, compound: true }),
    ]);
    // 115.50 gross holds 15.50 (10.00 + 5.50); the discounted 103.95 holds 13.95 (9.00 + 4.95).
    const lines = [line('a', '103.95', { subtotal: '115.50' })];
    const inclusive = run(snapshot, request({ to: { country: 'CA' }, lines, pricesIncludeTax: true }));
    expect(inclusive.totals).toMatchObject({ itemsTax: '13.95', itemsSubtotalTax: '15.50' });
    // Exclusive prices: the tax 100.00 before its discount would add.
    const exclusive = run(snapshot, request({ to: { country: 'CA' }, lines: [line('a', '90.00', { subtotal: '100.00' })] }));
    expect(exclusive.totals).toMatchObject({ itemsTax: '13.95', itemsSubtotalTax: '15.50' });
    // A subtotal that is not an amount is named.
    expect(() => run(snapshot, request({ lines: [line('a', '1.00', { subtotal: '-1' })] }))).toThrow(/subtotal/);
  });

  it('stacks several compound rates, each on the price plus every tax before it', () => {
    const snapshot = everywhere([
      taxRate(1, { rate: '10.0000', priority: 1 }),
      taxRate(2, { rate: '10.0000', priority: 2, compound: true }),
      taxRate(3, { rate: '10.0000', priority: 3, compound: true }),
    ]);
    const q = run(snapshot, request({ lines: [line('a', '100.00', { shippingRequired: false })] }));
    // 10.00; (100 + 10) x 10% = 11.00; (100 + 10 + 11) x 10% = 12.10
    expect(q.taxLines).toEqual([
      [1, '10.00', '0.00'],
      [2, '11.00', '0.00'],
      [3, '12.10', '0.00'],
    ]);
  });

  it('taxes shipping only with rates marked shipping', () => {
    const snapshot = everywhere(
      [
        taxRate(1, { rate: '20.0000', name: 'VAT', priority: 1, shipping: true }),
        taxRate(2, { rate: '2.0000', name: 'Eco', priority: 2, shipping: false }),
      ],
      7.5,
    );
    const q = run(snapshot, request({ to: { country: 'GB' }, lines: [line('a', '50.00')] }));
    // items: VAT 50.00 x 20% = 10.00, Eco 50.00 x 2% = 1.00; shipping 7.50: VAT 1.50, Eco none
    expect(q.taxLines).toEqual([
      [1, '10.00', '1.50'],
      [2, '1.00', '0.00'],
    ]);
    // 50.00 + 11.00 + 7.50 + 1.50
    expect(q.totals.total).toBe('70.00');
  });

  it('leaves shipping untaxed when the matching rate of its priority does not apply to shipping', () => {
    // Woo picks one rate per priority first, then drops the non-shipping ones for shipping.
    const snapshot = everywhere([
      taxRate(1, { rate: '8.0000', priority: 1, order: 1, shipping: false }),
      taxRate(2, { rate: '5.0000', priority: 1, order: 2, shipping: true }),
    ]);
    const q = run(snapshot, request({ lines: [line('a', '10.00')] }));
    // items: rate 1 only (first of priority 1): 10.00 x 8% = 0.80; shipping: nothing
    expect(q.taxLines).toEqual([[1, '0.80', '0.00']]);
    expect(q.rates).toEqual([['flat_rate:1', '10.00', '0.00']]);
  });

  it('takes the first matching rate of each priority, by order then id', () => {
    const snapshot = everywhere([
      taxRate(1, { country: 'US', rate: '5.0000', priority: 1, order: 2 }),
      taxRate(2, { country: '', rate: '3.0000', priority: 1, order: 1 }),
      taxRate(3, { country: 'US', rate: '1.0000', priority: 2, order: 0 }),
      taxRate(4, { country: 'US', rate: '9.0000', priority: 2, order: 0 }),
    ]);
    const q = run(snapshot, request({ to: { country: 'US' }, lines: [line('a', '100.00', { shippingRequired: false })] }));
    // priority 1: rate 2 (order 1 before order 2) = 3.00; priority 2: rate 3 (same order, lower id) = 1.00
    expect(q.taxLines).toEqual([
      [2, '3.00', '0.00'],
      [3, '1.00', '0.00'],
    ]);
  });

  it('matches postcode ranges (inclusive, numeric) and wildcards', () => {
    const snapshot = everywhere([
      taxRate(1, { country: 'US', state: 'CA', postcode: '90000...96199', rate: '7.2500', name: 'CA' }),
      taxRate(2, { country: 'US', postcode: '100*;11201', rate: '8.8750', name: 'NYC' }),
    ]);
    const cases: Array<[string, string, string, string]> = [
      // [state, postcode, rate applied, tax on 100.00]
      ['CA', '94103', 'CA', '7.25'],
      ['ca', '90000', 'CA', '7.25'], // lower end, state case-insensitive
      ['CA', '96199', 'CA', '7.25'], // upper end
      ['CA', '96200', '', '0.00'], // just above the range
      ['CA', '9410A', '', '0.00'], // not numeric: ranges never match
      ['NY', '10001', 'NYC', '8.88'], // 100.00 x 8.875% = 8.875 -> 8.88 (half up)
      ['NY', '100 01', 'NYC', '8.88'], // spaces ignored
      ['NY', '11201', 'NYC', '8.88'], // exact entry of the list
      ['NY', '12000', '', '0.00'],
    ];
    for (const [state, postcode, expectedRate, tax] of cases) {
      const q = run(
        snapshot,
        request({ to: { country: 'US', state, postcode }, lines: [line('a', '100.00', { shippingRequired: false })] }),
      );
      expect([state, postcode, q.lines[0][1]]).toEqual([state, postcode, tax]);
      expect(q.taxLines.map(([id]) => (id === 1 ? 'CA' : 'NYC'))).toEqual(expectedRate ? [expectedRate] : []);
    }
  });

  it('matches cities case-insensitively and countries/states exactly', () => {
    const snapshot = everywhere([
      taxRate(1, { country: 'US', state: 'CA', city: 'SAN FRANCISCO;OAKLAND', rate: '1.0000' }),
    ]);
    const tax = (to: Record<string, string>) =>
      run(snapshot, request({ to, lines: [line('a', '100.00', { shippingRequired: false })] })).totals.itemsTax;
    expect(tax({ country: 'US', state: 'CA', city: 'san  francisco' })).toBe('1.00');
    expect(tax({ country: 'us', state: 'ca', city: 'Oakland' })).toBe('1.00');
    expect(tax({ country: 'US', state: 'CA', city: 'Fresno' })).toBe('0.00');
    expect(tax({ country: 'US', state: 'NV', city: 'Oakland' })).toBe('0.00');
    expect(tax({ country: 'CA', state: 'CA', city: 'Oakland' })).toBe('0.00');
  });

  it('taxes each line with the rates of its tax class; shipping follows the shipped items', () => {
    const snapshot = everywhere([
      taxRate(1, { rate: '20.0000', class: 'standard' }),
      taxRate(2, { rate: '5.0000', class: 'reduced-rate' }),
    ]);
    const mixed = run(
      snapshot,
      request({ lines: [line('book', '10.00', { taxClass: 'reduced-rate' }), line('pen', '2.00')] }),
    );
    // book 10.00 x 5% = 0.50; pen 2.00 x 20% = 0.40; shipping (a standard item ships) 10.00 x 20% = 2.00
    expect(mixed.lines).toEqual([
      ['book', '0.50'],
      ['pen', '0.40'],
    ]);
    expect(mixed.totals.shippingTax).toBe('2.00');
    const reducedOnly = run(snapshot, request({ lines: [line('book', '10.00', { taxClass: 'reduced-rate' })] }));
    // only reduced-rate items ship: shipping 10.00 x 5% = 0.50
    expect(reducedOnly.totals.shippingTax).toBe('0.50');
  });

  it('extracts tax from prices that include it, compound first', () => {
    const snapshot = everywhere([
      taxRate(1, { rate: '10.0000', priority: 1 }),
      taxRate(2, { rate: '5.0000', priority: 2, compound: true }),
    ]);
    const q = run(
      snapshot,
      request({ pricesIncludeTax: true, lines: [line('a', '115.50', { shippingRequired: false })] }),
    );
    // compound: 115.50 - 115.50 / 1.05 = 115.50 - 110.00 = 5.50; simple: 110.00 x 0.10 / 1.10 = 10.00
    expect(q.taxLines).toEqual([
      [1, '10.00', '0.00'],
      [2, '5.50', '0.00'],
    ]);
    // the customer pays the price as shown: tax is inside it
    expect(q.totals).toMatchObject({ itemsTotal: '115.50', itemsTax: '15.50', total: '115.50' });
  });

  it('rounds inclusive tax to the cent: 20% inside 9.99', () => {
    const snapshot = everywhere([taxRate(1, { rate: '20.0000' })]);
    const q = run(snapshot, request({ pricesIncludeTax: true, lines: [line('a', '9.99')] }));
    // 9.99 - 9.99 / 1.2 = 9.99 - 8.325 = 1.665 -> 1.67; shipping 10.00 is tax-exclusive: + 2.00
    expect(q.lines).toEqual([['a', '1.67']]);
    // 9.99 + 10.00 + 2.00
    expect(q.totals).toMatchObject({ itemsTax: '1.67', shippingTax: '2.00', total: '21.99' });
  });
});

describe('quote engine: rounding', () => {
  const snapshot = everywhere([taxRate(1, { rate: '7.2500' })]);
  const lines = [line('a', '1.99'), line('b', '1.99'), line('c', '1.99')].map((l) => ({ ...l, shippingRequired: false }));

  it('line: rounds each line half up', () => {
    const q = run(snapshot, request({ lines }), 'line');
    // 1.99 x 7.25% = 0.144275 -> 0.14 per line; 3 x 0.14 = 0.42
    expect(q.lines).toEqual([
      ['a', '0.14'],
      ['b', '0.14'],
      ['c', '0.14'],
    ]);
    expect(q.totals.itemsTax).toBe('0.42');
  });

  it('subtotal: rounds the rate total once and spreads its cents by largest remainder', () => {
    const q = run(snapshot, request({ lines }), 'subtotal');
    // 3 x 0.144275 = 0.432825 -> 0.43; floors 3 x 0.14 = 0.42; the spare cent goes to the first (tied) line
    expect(q.lines).toEqual([
      ['a', '0.15'],
      ['b', '0.14'],
      ['c', '0.14'],
    ]);
    expect(q.totals.itemsTax).toBe('0.43');
  });

  it('subtotal: the largest remainder wins the spare cent', () => {
    const q = run(snapshot, request({ lines: [line('a', '1.00'), line('b', '1.07')] }), 'subtotal');
    // a: 0.0725 (floor 0.07, rest 0.0025); b: 1.07 x 7.25% = 0.077575 (floor 0.07, rest 0.007575)
    // total 0.150075 -> 0.15: one spare cent, to b
    expect(q.lines).toEqual([
      ['a', '0.07'],
      ['b', '0.08'],
    ]);
    const byLine = run(snapshot, request({ lines: [line('a', '1.00'), line('b', '1.07')] }), 'line');
    // line: 0.0725 -> 0.07; 0.077575 -> 0.08 (the same here)
    expect(byLine.totals.itemsTax).toBe('0.15');
  });
});

describe('quote engine: lines without shipping', () => {
  it('offers no rates when nothing needs shipping, and still taxes the items', () => {
    const snapshot = snapshotOf(
      [zone(1, { regions: regionsOf('US'), methods: [flatRate(1, 10)] })],
      [taxRate(1, { rate: '10.0000' })],
    );
    const q = run(snapshot, request({ to: { country: 'US' }, lines: [line('ebook', '20.00', { shippingRequired: false })] }));
    expect(q.rates).toEqual([]);
    expect(q.chosen).toBe('');
    // 20.00 x 10% = 2.00; no shipping
    expect(q.totals).toMatchObject({ itemsTax: '2.00', shippingTotal: '0.00', total: '22.00' });
  });
});
