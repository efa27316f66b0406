// `npm run bench [-- --duration=10 --connections=50 --only=<regex> --products=1000 --orders=10000 --place-carts=1500 --scrypt-cost=N --db-pool=10 --profile=<dir>]`
// Boots the platform on the real Postgres and NATS (fresh databases, like the
// tests), measures each route with autocannon from a separate process, and
// prints req/s, p50, p99 and each route's ratio to two reference paths
// measured in the same run (see references.ts), so figures compare across
// machines. Everything server-side shares one process: ratios, not absolute
// numbers, are the point. `--profile=<dir>` writes a CPU profile of the
// server side per measured route (open it in Chrome DevTools or speedscope).
import { createTestDatabase, createTestEvents, type TestDatabase } from '@storefront/testing';
import { PLATFORM_SERVICES, startPlatform } from '@storefront/platform';
import { writeFile, mkdir } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pino } from 'pino';
import { runLoad, type LoadResult, type LoadTarget } from './load';
import { startReferences } from './references';
import { prepareScenarios } from './scenarios';
import { adminCaller, seedCatalog, seedFulfillment, seedOrders, withRetries } from './seed';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const seconds = Number(arg('duration', '10'));
const connections = Number(arg('connections', '50'));
const only = new RegExp(arg('only', '.'));
const profileDir = arg('profile', '');

const ADMIN_PASSWORD = 'bench-admin-password';

async function main(): Promise<void> {
  const events = createTestEvents();
  const databases = new Map<string, TestDatabase>();
  for (const { definition } of PLATFORM_SERVICES) databases.set(definition.name, await createTestDatabase(`bench_${definition.name}`));
  const platform = await startPlatform({
    databaseUrl: (service) => databases.get(service)!.url,
    env: {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DB_POOL_SIZE: arg('db-pool', '10'),
      SHOP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT_ENABLED: 'false',
      // The setup logins (scrypt, N=2^17) can outlast 5 s on a busy machine.
      GRPC_DEADLINE_MS: '30000',
      // A busy machine may lower it (`--scrypt-cost=1024`) so the logins the setup needs finish in time; the login figure is then not comparable.
      ...(arg('scrypt-cost', '') ? { SCRYPT_COST: arg('scrypt-cost', '') } : {}),
      // Tracing's cost is measured by setting it (docs/operations.md, "Metrics and traces").
      OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
      ...events.env,
    },
    port: 0,
    logger: (name) => pino({ name, level: 'warn' }),
  });
  try {
    const caller = await withRetries(() => adminCaller(platform, ADMIN_PASSWORD));
    const productIds = await seedCatalog(platform, caller, Number(arg('products', '1000')), databases.get('catalog')!.url);
    const quoteRequest = await seedFulfillment(platform, caller);
    await seedOrders(platform, databases.get('orders')!.url, caller.userId, Number(arg('orders', '10000')));
    const scenarios = await prepareScenarios(platform.url, ADMIN_PASSWORD, productIds, only.test('checkout/place') ? Number(arg('place-carts', '1500')) : 0);
    const fulfillmentAddress = platform.services.find((s) => s.name === 'fulfillment')!.address;
    const refs = await startReferences(databases.get('customers')!.url, scenarios.meBody, {
      fulfillmentAddress,
      request: quoteRequest,
    }, events.env);
    const references: LoadTarget[] = [
      { name: 'ref: bare Fastify, same bytes as /me', url: `${refs.url}/ref/bare` },
      { name: 'ref: Fastify -> gRPC -> service -> PG PK', url: `${refs.url}/ref/grpc-pg/${scenarios.adminId}` },
      {
        name: 'ref: Fastify -> gRPC -> PG insert + JetStream ack',
        method: 'POST',
        url: `${refs.url}/ref/write`,
        headers: { 'content-type': 'application/json' },
        body: '{"name":"bench"}',
      },
    ];
    scenarios.targets.push({ name: 'quote: rates + taxes, 10-line cart (gRPC)', url: `${refs.url}/bench/quote` });
    const results: LoadResult[] = [];
    // The background CPU of an idle platform (outbox relays, timers), subtracted from each route's figure.
    const idleStart = process.cpuUsage();
    const idleWall = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = process.cpuUsage(idleStart);
    const idleUsPerMs = (idle.user + idle.system) / (performance.now() - idleWall);
    for (const target of [...references, ...scenarios.targets]) {
      if (!references.includes(target) && !only.test(target.name)) continue;
      await runLoad(target, Math.min(2, seconds), connections, true); // warm-up
      const cpuBefore = process.cpuUsage();
      const wallBefore = performance.now();
      const result = await profiled(target.name, () => runLoad(target, seconds, connections));
      const cpu = process.cpuUsage(cpuBefore);
      const background = idleUsPerMs * (performance.now() - wallBefore);
      result.cpuPerRequestUs = Math.max(0, cpu.user + cpu.system - background) / Math.max(1, result.requests);
      results.push(result);
      process.stderr.write(`  measured ${target.name}\n`);
    }
    await refs.close();
    print(results);
  } finally {
    await platform.stop();
    await Promise.all([...databases.values()].map((d) => d.drop()));
    await events.cleanup();
  }
}

/** Runs `measure`, under the CPU profiler when `--profile` names a directory. */
async function profiled<T>(name: string, measure: () => Promise<T>): Promise<T> {
  if (!profileDir) return measure();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await measure();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await mkdir(profileDir, { recursive: true });
    const file = `${name.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '')}.cpuprofile`;
    await writeFile(path.join(profileDir, file), JSON.stringify(profile));
  }
}

function print(results: LoadResult[]): void {
  const [bare, grpcPg, write] = results;
  const pad = (s: string, n: number) => s.padEnd(n);
  const width = Math.max(46, ...results.map((r) => r.name.length + 2));
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  const pct = (n: number, w: number) => `${(n * 100).toFixed(1)}%`.padStart(w);
  console.log(`\nStorefront benchmark: ${seconds}s per route, ${connections} connections, Node ${process.version}\n`);
  // cpu: server-process CPU per response (gateway + services, less the idle platform's background; not
  // Postgres, not the load generator), and the reference's figure over the route's: a throughput ratio that
  // holds up better than req/s on a machine shared with other work. `vs write`: ratio to the write reference.
  console.log(
    `${pad('route', width)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}` +
      `${'vs gRPC+PG'.padStart(11)}${'vs write'.padStart(10)}${'cpu us'.padStart(9)}${'cpu vs ref'.padStart(11)}  errors`,
  );
  for (const r of results) {
    console.log(
      `${pad(r.name, width)}${num(r.rps)}${num(r.p50, 1)}${num(r.p99, 1)}${pct(r.rps / bare.rps, 9)}${pct(r.rps / grpcPg.rps, 11)}` +
        `${pct(r.rps / write.rps, 10)}${num(r.cpuPerRequestUs ?? 0)}${pct((grpcPg.cpuPerRequestUs ?? 0) / (r.cpuPerRequestUs || 1), 11)}  ${r.errors + r.non2xx}`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
