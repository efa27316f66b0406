import { anonymousCaller, bindClient, openChannel, type CallerContext } from '@storefront/grpc-client';
import { catalog } from '@storefront/proto/catalog';
import { customers } from '@storefront/proto/customers';
import { fulfillment } from '@storefront/proto/fulfillment';
import { orders } from '@storefront/proto/orders';
import type { Platform } from '@storefront/platform';
import pg from 'pg';

const address = (platform: Platform, name: string) => platform.services.find((s) => s.name === name)!.address;

/** The administrator as a gRPC caller (its capabilities come from a real login). */
export async function adminCaller(platform: Platform, password: string): Promise<CallerContext> {
  // scrypt on a busy machine can outlast the default 5 s deadline.
  const channel = openChannel('customers', address(platform, 'customers'), 60_000);
  const auth = bindClient(channel, customers.AuthServiceService);
  const { principal } = await auth
    .login({ identifier: 'admin', password, remember: false, redirectTo: '' }, anonymousCaller('bench'))
    .finally(() => channel.close());
  return { ...anonymousCaller('bench'), userId: principal!.userId, login: principal!.login, roles: principal!.roles, capabilities: principal!.capabilities };
}

/**
 * A setup call, retried when the service could not reach its database in
 * time or did not answer before the deadline (a busy machine; the gRPC
 * client reports both as 503): those failures happen before anything is written.
 */
export async function withRetries<T>(call: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (attempt >= attempts || (status !== 500 && status !== 503)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
}

/** A catalog of `count` published products over 5 categories, each with a price and managed stock. */
export async function seedCatalog(platform: Platform, caller: CallerContext, count: number, databaseUrl?: string): Promise<number[]> {
  const channel = openChannel('catalog', address(platform, 'catalog'), 30_000);
  const terms = bindClient(channel, catalog.TermServiceService);
  const products = bindClient(channel, catalog.ProductServiceService);
  const categories: number[] = [];
  for (const name of ['Apparel', 'Books', 'Garden', 'Kitchen', 'Toys']) {
    const { term } = await terms.createTerm({ taxonomy: 'shop_product_category', fields: { name } }, caller);
    categories.push(term!.id);
  }
  const ids: number[] = [];
  for (let batch = 0; batch < count; batch += 20) {
    const created = await Promise.all(
      Array.from({ length: Math.min(20, count - batch) }, (_, i) => {
        const n = batch + i + 1;
        return withRetries(() =>
          products.createProduct(
            {
              fields: catalog.ProductFields.fromPartial({
                title: `Bench product ${n}`,
                content: `A sturdy, well-made bench product number ${n}.`,
                excerpt: 'Sturdy and well made.',
                status: 'publish',
                shopProductCategory: { ids: [categories[n % categories.length]] },
                prices: { items: [catalog.PriceInput.fromPartial({ name: 'Standard', amount: `${(n % 90) + 9}.99` })] },
                sku: `BENCH-${n}`,
                manageStock: true,
                stockQuantity: 100,
              }),
            },
            caller,
          ),
        );
      }),
    );
    ids.push(...created.map((c) => c.product!.id));
  }
  channel.close();
  if (databaseUrl) await vacuumAnalyze(databaseUrl);
  return ids;
}

/**
 * The state autovacuum leaves tables in within a minute of a bulk insert or a
 * burst of writes: visibility map set (counts and page keys read the index
 * only), statistics current, dead row versions (counters, outbox) gone.
 */
export async function vacuumAnalyze(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) => client.query('vacuum analyze'));
}

/** Whether the server runs autovacuum (production does; a CI machine's may not). */
export async function autovacuumRuns(databaseUrl: string): Promise<boolean> {
  return withClient(databaseUrl, async (client) => (await client.query('show autovacuum')).rows[0].autovacuum === 'on');
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A US zone with a flat rate, a simple state tax and a compound city tax; returns a 10-line quote request. */
export async function seedFulfillment(platform: Platform, caller: CallerContext): Promise<fulfillment.QuoteRequest> {
  const channel = openChannel('fulfillment', address(platform, 'fulfillment'));
  const shipping = bindClient(channel, fulfillment.ShippingServiceService);
  const taxes = bindClient(channel, fulfillment.TaxServiceService);
  const { zone } = await shipping.createZone({ name: 'United States', locations: ['US'], postcodes: '' }, caller);
  await shipping.createZoneMethod({ zoneId: zone!.id, methodId: 'flat_rate', settings: { cost: 5 } }, caller);
  await shipping.createZoneMethod({ zoneId: zone!.id, methodId: 'free_shipping', settings: { requires: 'min_amount', min_amount: 100 } }, caller);
  await taxes.createTaxRate({ country: 'US', state: 'CA', rate: '7.25', name: 'CA', priority: 1 }, caller);
  await taxes.createTaxRate({ country: 'US', state: 'CA', postcode: '90001...90099', rate: '1.5', name: 'LA', priority: 2, compound: true }, caller);
  channel.close();
  return fulfillment.QuoteRequest.fromPartial({
    destination: { country: 'US', state: 'CA', postcode: '90012', city: 'Los Angeles' },
    lines: Array.from({ length: 10 }, (_, i) => ({
      key: `line-${i}`,
      amount: `${(i + 1) * 3}.99`,
      quantity: 1 + (i % 3),
      shippingRequired: i !== 9,
      weight: '0.5',
    })),
  });
}

/**
 * `count` placed orders of `customerId` (3 lines and a shipping line each):
 * the first 200 through the checkout contract (CreateOrder), the rest copied
 * from them in SQL in the orders database (seeding 10,000 over gRPC, with
 * their outbox events, takes minutes on a busy machine).
 */
export async function seedOrders(platform: Platform, ordersDatabaseUrl: string, customerId: number, count: number): Promise<void> {
  const channel = openChannel('orders', address(platform, 'orders'), 30_000);
  const checkout = bindClient(channel, orders.OrderCheckoutServiceService);
  const viaGrpc = Math.min(200, count);
  for (let batch = 0; batch < viaGrpc; batch += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, viaGrpc - batch) }, (_, i) => {
        const n = batch + i + 1;
        return checkout.createOrder(
          orders.CreateOrderRequest.fromPartial({
            checkoutKey: `bench-${n}`,
            status: 'pending_payment',
            customerId,
            currency: 'USD',
            billing: { firstName: 'Bench', lastName: `Buyer ${n}`, email: `buyer${n}@example.com`, country: 'US', state: 'CA' },
            shipping: { firstName: 'Bench', lastName: `Buyer ${n}`, country: 'US', state: 'CA' },
            paymentMethod: 'bacs',
            createdVia: 'checkout',
            lineItems: [1, 2, 3].map((k) => ({
              productId: k,
              priceId: k,
              name: `Bench product ${k}`,
              quantity: k,
              price: '10.00',
              subtotal: `${10 * k}.00`,
              total: `${10 * k}.00`,
              shippingRequired: true,
            })),
            shippingLines: [{ methodId: 'flat_rate', instanceId: 1, rateId: 'flat_rate:1', label: 'Flat rate', total: '5.00', totalTax: '0.00' }],
            subtotal: '60.00',
            shippingTotal: '5.00',
            total: '65.00',
          }),
          anonymousCaller('bench'),
        );
      }),
    );
  }
  channel.close();
  const copies = Math.ceil((count - viaGrpc) / viaGrpc);
  if (copies <= 0) return;
  const client = new pg.Client({ connectionString: ordersDatabaseUrl });
  await client.connect();
  try {
    const cols = `status, paid_status, currency, customer_id, payment_method, payment_method_title, transaction_id, customer_note,
      billing, shipping, subtotal, discount_total, shipping_total, total_tax, total, refunded_total, item_count, date_created,
      date_modified, meta_data, reservation_id, created_via, coupon_codes, search_text`;
    await client.query('begin');
    await client.query(
      `insert into orders.orders (order_key, ${cols})
       select 'copy_' || g || '_' || o.id, ${cols.replace(/date_created,\s*date_modified/, "date_created + g * interval '1 second', date_modified")}
         from orders.orders o cross join generate_series(1, $1::int) g where o.id <= $2
         order by g, o.id limit $3`,
      [copies, viaGrpc, count - viaGrpc],
    );
    await client.query(
      `insert into orders.order_line_items (order_id, product_id, price_id, variation_id, name, quantity, price, subtotal,
         discount, tax, total, downloadable, shipping_required, sku, meta_data)
       select c.id, l.product_id, l.price_id, l.variation_id, l.name, l.quantity, l.price, l.subtotal, l.discount, l.tax,
              l.total, l.downloadable, l.shipping_required, l.sku, l.meta_data
         from orders.orders c join orders.order_line_items l on l.order_id = split_part(c.order_key, '_', 3)::int
        where c.order_key like 'copy\\_%'`,
    );
    await client.query(
      `insert into orders.order_shipping_lines (order_id, method_id, instance_id, rate_id, label, total, total_tax)
       select c.id, s.method_id, s.instance_id, s.rate_id, s.label, s.total, s.total_tax
         from orders.orders c join orders.order_shipping_lines s on s.order_id = split_part(c.order_key, '_', 3)::int
        where c.order_key like 'copy\\_%'`,
    );
    await client.query('commit');
  } finally {
    await client.end();
  }
  await vacuumAnalyze(ordersDatabaseUrl);
}
