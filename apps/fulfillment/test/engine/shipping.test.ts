import { describe, expect, it } from '@jest/globals';
import { flatRate, freeShipping, line, regionsOf, request, run, snapshotOf, taxRate, zone } from './fixtures';

describe('quote engine: zones', () => {
  const snapshot = snapshotOf([
    zone(0, { methods: [flatRate(9, 25)] }),
    zone(1, { name: 'Europe', order: 2, regions: regionsOf('continent:EU') }),
    zone(2, { name: 'France', order: 1, regions: regionsOf('FR') }),
    zone(3, { name: 'US West', order: 3, regions: regionsOf('US:CA', 'US:OR') }),
    zone(4, { name: 'London', order: 0, regions: regionsOf('GB'), postcodes: ['SW1A*', 'E1 6AN'] }),
    zone(5, { name: 'Also France', order: 1, regions: regionsOf('FR') }),
  ]);
  const zoneFor = (to: Record<string, string>) => run(snapshot, request({ to, lines: [line('a', '1.00')] })).zone;

  it.each([
    // [destination, zone]: the first match by order, then id
    [{ country: 'FR' }, 2], // France (order 1, id 2) before Also France (order 1, id 5) and Europe (order 2)
    [{ country: 'DE' }, 1], // Europe by continent
    [{ country: 'US', state: 'CA' }, 3],
    [{ country: 'us', state: 'or' }, 3],
    [{ country: 'US', state: 'NY' }, 0], // no zone: rest of the world
    [{ country: 'GB', postcode: 'sw1a 1aa' }, 4], // London (order 0) needs a postcode match: SW1A* matches
    [{ country: 'GB', postcode: 'E16AN' }, 4], // spaces ignored
    [{ country: 'GB', postcode: 'EC1A 1BB' }, 1], // not London: Europe
    [{ country: '' }, 0],
  ])('%j -> zone %i', (to, expected) => {
    expect(zoneFor(to as Record<string, string>)).toBe(expected);
  });

  it('falls back to the rest of the world and offers its methods', () => {
    const q = run(snapshot, request({ to: { country: 'JP' }, lines: [line('a', '1.00')] }));
    expect(q.zone).toBe(0);
    expect(q.rates).toEqual([['flat_rate:9', '25.00', '0.00']]);
  });

  it('matches every region with a zone that has only postcodes (as WooCommerce does)', () => {
    const postcodeOnly = snapshotOf([zone(7, { postcodes: ['10000...19999'] })]);
    const zoneOf = (postcode: string) =>
      run(postcodeOnly, request({ to: { country: 'DE', postcode }, lines: [line('a', '1.00')] })).zone;
    expect(zoneOf('10115')).toBe(7);
    expect(zoneOf('20095')).toBe(0);
  });
});

describe('quote engine: shipping rates', () => {
  it('lists enabled methods by order and lets the caller choose which one is taxed into the totals', () => {
    const snapshot = snapshotOf(
      [
        zone(1, {
          regions: regionsOf('US'),
          methods: [
            flatRate(1, 10, { order: 2, title: 'Standard' }),
            flatRate(2, 20, { order: 1, title: 'Express' }),
            flatRate(3, 5, { enabled: false }),
            { instanceId: 4, methodId: 'local_pickup', title: 'Pickup', enabled: true, order: 3, settings: { cost: 0 } },
          ],
        }),
      ],
      [taxRate(1, { rate: '10.0000' })],
    );
    const base = request({ to: { country: 'US' }, lines: [line('a', '50.00')] });
    const first = run(snapshot, base);
    // Express 20.00 x 10% = 2.00; Standard 10.00 x 10% = 1.00; Pickup 0
    expect(first.rates).toEqual([
      ['flat_rate:2', '20.00', '2.00'],
      ['flat_rate:1', '10.00', '1.00'],
      ['local_pickup:4', '0.00', '0.00'],
    ]);
    expect(first.chosen).toBe('flat_rate:2');
    const chosen = run(snapshot, { ...base, chosenRateId: 'flat_rate:1' });
    // 50.00 + 5.00 + 10.00 + 1.00
    expect(chosen.taxLines).toEqual([[1, '5.00', '1.00']]);
    expect(chosen.totals).toMatchObject({ shippingTotal: '10.00', shippingTax: '1.00', total: '66.00' });
    // an unavailable choice falls back to the first rate
    expect(run(snapshot, { ...base, chosenRateId: 'flat_rate:3' }).chosen).toBe('flat_rate:2');
  });

  const offersFree = (requires: string, coupon: boolean, subtotal: string) => {
    const snapshot = snapshotOf([zone(1, { methods: [flatRate(1, 5), freeShipping(2, requires, 50)] })]);
    const q = run(snapshot, request({ lines: [line('a', subtotal)], couponFreeShipping: coupon }));
    return q.rates.some(([id]) => id === 'free_shipping:2');
  };

  it.each([
    // [requires, coupon grants free shipping, subtotal, offered] with min_amount 50.00
    ['none', false, '1.00', true],
    ['min_amount', false, '49.99', false],
    ['min_amount', false, '50.00', true], // the threshold itself qualifies
    ['coupon', false, '100.00', false],
    ['coupon', true, '1.00', true],
    ['either', false, '60.00', true],
    ['either', true, '40.00', true],
    ['either', false, '40.00', false],
    ['both', true, '60.00', true],
    ['both', true, '40.00', false],
    ['both', false, '60.00', false],
  ])('free shipping requiring %s (coupon %s, subtotal %s): offered %s', (requires, coupon, subtotal, offered) => {
    expect(offersFree(requires, coupon, subtotal)).toBe(offered);
  });

  it('compares min_amount with the subtotal the caller gives, else the sum of lines', () => {
    const snapshot = snapshotOf([zone(1, { methods: [freeShipping(2, 'min_amount', 50)] })]);
    const lines = [line('a', '30.00'), line('b', '25.00')];
    // 30.00 + 25.00 = 55.00 >= 50.00
    expect(run(snapshot, request({ lines })).rates).toEqual([['free_shipping:2', '0.00', '0.00']]);
    // the cart says its subtotal (e.g. after a discount) is 45.00
    expect(run(snapshot, request({ lines, subtotal: '45.00' })).rates).toEqual([]);
  });
});
