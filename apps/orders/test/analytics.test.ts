import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { orders } from '@storefront/proto/orders';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { statementsOf as countStatements } from '@storefront/testing';
import { ordersService } from '../src/service';

/** Statements over the order tables (not the outbox relay's or health checks'). */
const ORDER_TABLES = /"orders"\."order/;
import { oneMonthBefore, parsePeriod, previousWindow } from '../src/domain/analytics/period';

// Analytics over real gRPC and Postgres: each report is one SQL statement
// whatever the number of orders and days, and amounts follow the currency's
// decimals. The REST behaviour is apps/platform/test/analytics.e2e.test.ts.

describe('periods', () => {
  const now = new Date('2026-03-31T18:00:00Z');

  it('default to the month up to today (UTC), clamped at a shorter month', () => {
    expect(parsePeriod({}, now)).toEqual({ from: '2026-02-28', to: '2026-03-31' });
    expect(parsePeriod({ to: '2026-01-15' }, now)).toEqual({ from: '2025-12-15', to: '2026-01-15' });
    // from defaults to one month ago (spec), whatever to is, unless to is before it.
    expect(parsePeriod({ to: '2026-04-10' }, now)).toEqual({ from: '2026-02-28', to: '2026-04-10' });
    expect(parsePeriod({ to: '2026-03-05' }, now)).toEqual({ from: '2026-02-28', to: '2026-03-05' });
    // A default never reaches before 1970-01-01 (a from sent there is refused).
    expect(parsePeriod({ to: '1970-01-10' }, now)).toEqual({ from: '1970-01-01', to: '1970-01-10' });
    expect(() => parsePeriod({ from: '1969-12-31', to: '1970-01-10' }, now)).toThrow();
    expect(oneMonthBefore('2024-03-30')).toBe('2024-02-29');
  });

  it('put the previous window right before from', () => {
    expect(previousWindow({ from: '2026-03-01', to: '2026-03-03' }, undefined)).toEqual({ from: '2026-01-30', to: '2026-02-28' });
    expect(previousWindow({ from: '2026-03-01', to: '2026-03-03' }, 1)).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });

  it('refuse impossible dates, reversed or overlong periods and compare outside 1..3660 with rest_invalid_param', () => {
    const params = (work: () => unknown) => {
      try {
        work();
      } catch (err) {
        return Object.keys((err as { data?: { params?: object } }).data?.params ?? {});
      }
      return [];
    };
    expect(params(() => parsePeriod({ from: '2026-02-29' }, now))).toEqual(['from']);
    expect(params(() => parsePeriod({ from: '2026-3-1' }, now))).toEqual(['from']);
    expect(params(() => parsePeriod({ from: '2026-04-01' }, now))).toEqual(['from']);
    expect(params(() => parsePeriod({ from: '2000-01-01' }, now))).toEqual(['from']);
    expect(params(() => parsePeriod({ from: '1969-12-31', to: '1970-01-01' }, now))).toEqual(['from']);
    expect(params(() => previousWindow({ from: '2026-03-01', to: '2026-03-01' }, 0))).toEqual(['compare']);
    expect(params(() => previousWindow({ from: '2026-03-01', to: '2026-03-01' }, 3661))).toEqual(['compare']);
  });
});

describe('reports over gRPC', () => {
  let service: TestService;
  let channel: Channel;
  let db: pg.Client;
  let checkout: ReturnType<typeof bindClient<typeof orders.OrderCheckoutServiceService>>;
  let analytics: ReturnType<typeof bindClient<typeof orders.AnalyticsServiceService>>;
  const caller = { ...anonymousCaller('t'), userId: 1, capabilities: ['manage_options'] };
  let n = 0;

  async function seed(day: string, currency: string, subtotal: string, productId: number): Promise<void> {
    n += 1;
    const { order } = await checkout.createOrder(
      orders.CreateOrderRequest.fromPartial({
        checkoutKey: `a${n}`,
        status: 'pending_payment',
        customerId: 100 + (n % 7),
        currency,
        lineItems: [{ productId, priceId: productId, name: `P${productId}`, quantity: 1, price: subtotal, subtotal, total: subtotal }],
        subtotal,
        total: subtotal,
      }),
      anonymousCaller('seed'),
    );
    await db.query(`update "orders"."orders" set status = 'completed', date_created = $2 where id = $1`, [order!.id, `${day}T12:00:00Z`]);
  }

  const statementsOf = (work: () => Promise<unknown>) => countStatements(ORDER_TABLES, work);

  const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10);

  beforeAll(async () => {
    service = await startTestService(ordersService);
    channel = openChannel('orders', service.address, 20_000);
    checkout = bindClient(channel, orders.OrderCheckoutServiceService);
    analytics = bindClient(channel, orders.AnalyticsServiceService);
    db = new pg.Client({ connectionString: service.config.DATABASE_URL });
    await db.connect();
  }, 60_000);
  afterAll(async () => {
    channel?.close();
    await db?.end();
    await service?.stop();
  }, 60_000);

  it('answers each report with one statement, for 5 orders or 60 over 60 days and 20 products', async () => {
    for (let i = 0; i < 5; i++) await seed(day(i), 'USD', '10.00', 1 + i);
    const cost = async () => [
      await statementsOf(() => analytics.getStoreAnalytics({ from: '2026-01-01', to: '2026-03-01', compare: 30, currency: '' }, caller)),
      await statementsOf(() =>
        analytics.listProductAnalytics({ from: '2026-01-01', to: '2026-03-01', currency: '', search: '', page: 1, perPage: 100 }, caller),
      ),
      await statementsOf(() => analytics.getProductAnalytics({ productId: 1, from: '2026-01-01', to: '2026-03-01' }, caller)),
    ];
    const few = await cost();
    for (let i = 5; i < 60; i++) await seed(day(i), 'USD', '10.00', 1 + (i % 20));
    const many = await cost();
    expect(few).toEqual([1, 1, 1]);
    expect(many).toEqual([1, 1, 1]);
    const report = await analytics.getStoreAnalytics({ from: '2026-01-01', to: '2026-03-01', currency: 'USD' }, caller);
    expect(report.totals?.ordersCount).toBe(60);
    expect(report.totals?.grossSales).toBe('600.00');
    expect(report.intervals).toHaveLength(60);
    const products = await analytics.listProductAnalytics({ from: '2026-01-01', to: '2026-03-01', currency: '', search: '', page: 1, perPage: 100 }, caller);
    expect(products.total).toBe(20);
  });

  it('rounds the average order value half up to the currency decimals (whole units for JPY)', async () => {
    await seed('2026-05-01', 'JPY', '1000.00', 50);
    await seed('2026-05-01', 'JPY', '1000.00', 50);
    await seed('2026-05-02', 'JPY', '1002.00', 50);
    const yen = await analytics.getStoreAnalytics({ from: '2026-05-01', to: '2026-05-02', currency: 'JPY' }, caller);
    // 3002 / 3 = 1000.67 -> 1001.
    expect(yen.totals).toMatchObject({ grossSales: '3002', netSales: '3002', averageOrderValue: '1001', ordersCount: 3 });
    await seed('2026-06-01', 'USD', '10.00', 51);
    await seed('2026-06-01', 'USD', '10.00', 51);
    await seed('2026-06-01', 'USD', '10.01', 51);
    const usd = await analytics.getStoreAnalytics({ from: '2026-06-01', to: '2026-06-01', currency: 'USD' }, caller);
    // 30.01 / 3 = 10.0033 -> 10.00.
    expect(usd.totals).toMatchObject({ grossSales: '30.01', averageOrderValue: '10.00' });
  });

  it('answers NOT_FOUND for a product neither sold nor known (no catalog configured)', async () => {
    await expect(analytics.getProductAnalytics({ productId: 999_999 }, caller)).rejects.toMatchObject({ code: 'rest_post_invalid_id', status: 404 });
  });
});
