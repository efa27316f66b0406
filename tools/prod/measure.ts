// Memory and capacity in the production shape (docs/capacity.md):
//   node --import tsx tools/prod/measure.ts [--duration=20] [--gateways=1] [--catalogs=1] [--node-options='...'] [--phases=read,orders] [--skip-build]
// Starts the production shape (tools/prod/launcher.ts), records idle RSS, then
// runs a read mix (autocannon through the gateway) and an order phase (workers
// placing cod orders), and reports per process: CPU ms per request (so req/s
// per core, which holds on a shared machine where wall-clock rates do not),
// RSS idle and at peak (VmHWM, reset after boot), Postgres backend CPU and row
// writes per order, and NATS messages/bytes per order.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import pg from 'pg';
import { ADMIN, memoryOf, ROOT, SERVICES, startProd, type ProdStack } from './launcher';
import { expectStatus, Shopper } from './shop-http';

const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const seconds = Number(arg('duration', '20'));
const gateways = Number(arg('gateways', '1'));
const catalogs = Number(arg('catalogs', '1'));
const phases = arg('phases', 'read,orders').split(',');
const nodeOptions = process.argv.find((a) => a.startsWith('--node-options='))?.slice('--node-options='.length);
const out = arg('out', '');

/** utime+stime of a process in ms (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Resets VmHWM so the next peak is the load phase's, not boot's. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

interface Cannon {
  name: string;
  path: string;
  connections: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

function autocannon(baseUrls: string[], target: Cannon, secs: number): Promise<{ name: string; requests: number; non2xx: number; rps: number; p99: number }> {
  // One autocannon per gateway URL: clients spread over replicas as a load balancer would.
  return Promise.all(
    baseUrls.map(
      (base) =>
        new Promise<any>((done, fail) => {
          const args = ['node_modules/autocannon/autocannon.js', '-j', '-d', String(secs), '-c', String(Math.max(1, Math.round(target.connections / baseUrls.length)))];
          args.push('-m', target.method ?? 'GET');
          for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}: ${v}`);
          if (target.body) args.push('-b', target.body);
          args.push(base + target.path);
          const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
          let text = '';
          child.stdout.on('data', (c) => (text += c));
          child.once('exit', (code) => (code === 0 ? done(JSON.parse(text)) : fail(new Error(`autocannon ${code}`))));
        }),
    ),
  ).then((results) => ({
    name: target.name,
    requests: results.reduce((n, r) => n + r.requests.total, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
    rps: Math.round(results.reduce((n, r) => n + r.requests.average, 0)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
  }));
}

async function pgBackends(client: pg.Client, dbs: string[]): Promise<number[]> {
  const res = await client.query('select pid from pg_stat_activity where datname = any($1)', [dbs]);
  return res.rows.map((r) => r.pid as number);
}

async function pgCounters(client: pg.Client, dbs: string[]) {
  const res = await client.query(
    'select sum(xact_commit)::bigint as commits, sum(tup_inserted + tup_updated + tup_deleted)::bigint as writes, sum(tup_returned + tup_fetched)::bigint as reads from pg_stat_database where datname = any($1)',
    [dbs],
  );
  return { commits: Number(res.rows[0].commits), writes: Number(res.rows[0].writes), reads: Number(res.rows[0].reads) };
}

async function natsStream(url: string, stream: string) {
  const nc = await connect({ servers: url });
  try {
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    return { messages: info.state.messages, bytes: info.state.bytes };
  } finally {
    await nc.close();
  }
}

/** gRPC calls a service process has served (its Prometheus histogram's counts): shows how round robin spread them. */
async function grpcCalls(stack: ProdStack): Promise<Record<string, number>> {
  const entries = await Promise.all(
    stack.processes
      .filter((p) => p.app !== 'gateway')
      .map(async (p) => {
        const text = await fetch(`http://127.0.0.1:${p.metricsPort}/metrics`).then((r) => r.text(), () => '');
        const calls = text
          .split('\n')
          .filter((line) => line.startsWith('grpc_server_handling_seconds_count') && !line.includes('grpc.health'))
          .reduce((n, line) => n + Number(line.split(' ').pop()), 0);
        return [`${p.app}#${p.index}`, calls] as const;
      }),
  );
  return Object.fromEntries(entries);
}

function cpuOfAll(stack: ProdStack): Record<string, number> {
  return Object.fromEntries(stack.processes.map((p) => [`${p.app}#${p.index}`, cpuMs(p.child.pid!)]));
}

function diff(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]));
}

async function main(): Promise<void> {
  // Connected first: a shared server near max_connections would refuse it after the stack's pools.
  const pgAdmin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' });
  await pgAdmin.connect();
  const started = Date.now();
  const stack = await startProd({
    replicas: { gateway: gateways, catalog: catalogs },
    skipBuild: process.argv.includes('--skip-build'),
    // `--scrypt-cost=N` measures another password-hash cost than the production default.
    ...(arg('scrypt-cost', '') ? { appEnv: { customers: { SCRYPT_COST: arg('scrypt-cost', '') } } } : {}),
    ...(nodeOptions !== undefined ? { nodeOptions } : {}),
    log: (l) => process.stderr.write(`[prod] ${l}\n`),
  });
  const report: Record<string, unknown> = { seconds, gateways, catalogs, nodeOptions: nodeOptions ?? 'default', bootMs: Date.now() - started };
  const dbNames = SERVICES.map((s) => new URL(stack.databases[s]).pathname.slice(1));
  try {
    // Seed: 20 products, a shipping zone, a signed-in customer.
    const admin = new Shopper(stack.url);
    await admin.login(ADMIN.login, ADMIN.password);
    const products: Array<{ id: number; price: number }> = [];
    for (let i = 0; i < 20; i++) {
      const p = expectStatus(await admin.post('/shop/v1/shop_product', { title: `Bench ${i}`, status: 'publish', prices: [{ amount: 10 + i }] }), 201, 'product');
      products.push({ id: p.body.id, price: p.body.prices[0].id });
    }
    const zone = expectStatus(await admin.post('/shop/v1/shipping/zones', { zone_name: 'US', zone_locations: ['US'] }), 201, 'zone');
    await admin.post(`/shop/v1/shipping/zones/${zone.body.id}/methods`, { method_id: 'flat_rate', settings: { cost: 5 } });
    const customer = new Shopper(stack.url);
    const password = 'bench-password-123';
    expectStatus(await customer.post('/shop/v1/auth/register', { email: 'bench@example.com', password }), [200, 201], 'register');
    await customer.login('bench@example.com', password);
    const auth = { cookie: customer.cookieHeader(), 'x-platform-nonce': customer.nonceHeader() ?? '' };

    // Idle: let boot work settle, then sample.
    await new Promise((r) => setTimeout(r, 5000));
    const idle = Object.fromEntries(stack.processes.map((p) => [`${p.app}#${p.index}`, memoryOf(p.child.pid!)]));
    report.idle = idle;
    for (const p of stack.processes) resetPeak(p.child.pid!);

    if (phases.includes('read')) {
      const before = cpuOfAll(stack);
      const callsBefore = await grpcCalls(stack);
      const cannons: Cannon[] = [
        { name: 'products list (guest)', path: '/shop/v1/shop_product?per_page=10', connections: 8 },
        { name: 'product (guest)', path: `/shop/v1/shop_product/${products[3].id}`, connections: 4 },
        { name: 'products list (signed in)', path: '/shop/v1/shop_product?per_page=10', connections: 4, headers: auth },
        { name: 'me (customers)', path: '/shop/v1/me', connections: 4, headers: auth },
        { name: 'me/orders (orders)', path: '/shop/v1/me/orders', connections: 4, headers: auth },
        { name: 'cart (cart)', path: '/shop/v1/cart', connections: 4, headers: auth },
      ];
      const results = await Promise.all(cannons.map((c) => autocannon(stack.gatewayUrls, c, seconds)));
      const cpu = diff(cpuOfAll(stack), before);
      const total = results.reduce((n, r) => n + r.requests, 0);
      const calls = diff(await grpcCalls(stack), callsBefore);
      report.read = { grpcCalls: calls, results, totalRequests: total, rps: Math.round(total / seconds), cpuMs: cpu, cpuMsPerRequest: perUnit(cpu, total) };
    }

    if (phases.includes('orders')) {
      const backendsBefore = await pgBackends(pgAdmin, dbNames);
      const pgCpuBefore = backendsBefore.reduce((n, pid) => n + cpuMs(pid), 0);
      const countersBefore = await pgCounters(pgAdmin, dbNames);
      const natsBefore = await natsStream(stack.events.url, stack.events.stream);
      const before = cpuOfAll(stack);
      const deadline = Date.now() + seconds * 1000;
      let placed = 0;
      let failed = 0;
      // 6 shoppers, each its own signed-in session: add an item, place cod, again until the time is up.
      await Promise.all(
        Array.from({ length: 6 }, async (_, w) => {
          const shopper = new Shopper(stack.gatewayUrls[w % stack.gatewayUrls.length]);
          const email = `orders-${w}@example.com`;
          await shopper.post('/shop/v1/auth/register', { email, password });
          await shopper.login(email, password);
          const fields = { billing_first_name: 'B', billing_last_name: 'W', billing_address_1: '1 Main St', billing_city: 'Springfield', billing_state: 'IL', billing_postcode: '62701', billing_country: 'US', billing_email: email, terms: true };
          for (let i = 0; Date.now() < deadline; i++) {
            await shopper.post('/shop/v1/cart/items', { price_id: products[(w + i) % products.length].price, quantity: 1 });
            const res = await shopper.post('/shop/v1/checkout/place', { fields, payment_method: 'cod' });
            if (res.status === 200) placed++;
            else failed++;
          }
        }),
      );
      const cpu = diff(cpuOfAll(stack), before);
      const backendsAfter = await pgBackends(pgAdmin, dbNames);
      const pgCpu = backendsAfter.reduce((n, pid) => n + cpuMs(pid), 0) - pgCpuBefore;
      const counters = await pgCounters(pgAdmin, dbNames);
      // Let the outbox relays publish what the last orders wrote.
      await new Promise((r) => setTimeout(r, 3000));
      const nats = await natsStream(stack.events.url, stack.events.stream);
      report.orders = {
        placed,
        failed,
        ordersPerSecond: +(placed / seconds).toFixed(1),
        cpuMs: cpu,
        cpuMsPerOrder: perUnit(cpu, placed),
        postgres: {
          backends: backendsAfter.length,
          cpuMsPerOrder: +(pgCpu / placed).toFixed(2),
          commitsPerOrder: +((counters.commits - countersBefore.commits) / placed).toFixed(1),
          rowWritesPerOrder: +((counters.writes - countersBefore.writes) / placed).toFixed(1),
          rowReadsPerOrder: +((counters.reads - countersBefore.reads) / placed).toFixed(1),
        },
        nats: {
          messagesPerOrder: +((nats.messages - natsBefore.messages) / placed).toFixed(2),
          bytesPerOrder: Math.round((nats.bytes - natsBefore.bytes) / placed),
        },
      };
    }

    report.peak = Object.fromEntries(stack.processes.map((p) => [`${p.app}#${p.index}`, memoryOf(p.child.pid!)]));
    const sizes = await pgAdmin.query('select datname, pg_database_size(datname) as bytes from pg_database where datname = any($1)', [dbNames]);
    report.databaseBytes = Object.fromEntries(sizes.rows.map((r) => [r.datname.replace(/^t_prod_(\w+?)_[0-9a-f]+$/, '$1'), Number(r.bytes)]));
  } finally {
    await pgAdmin.end();
    await stack.stop();
  }
  const text = JSON.stringify(report, null, 2);
  if (out) writeFileSync(out, text);
  process.stdout.write(`${text}\n`);
}

function perUnit(cpu: Record<string, number>, n: number): Record<string, number> {
  return Object.fromEntries(Object.entries(cpu).map(([k, ms]) => [k, n ? +(ms / n).toFixed(3) : 0]));
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
