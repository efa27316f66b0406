// `npm run bench [-- --duration=10 --connections=50 --only=<regex> --products=1000 --orders=10000]`
// Boots the platform on the real Postgres and NATS (fresh databases, like the
// tests), measures each route with autocannon from a separate process, and
// prints req/s, p50, p99 and each route's ratio to two reference paths
// measured in the same run (see references.ts), so figures compare across
// machines. Everything server-side shares one process: ratios, not absolute
// numbers, are the point.
import { createTestDatabase, createTestEvents, type TestDatabase } from '@storefront/testing';
import { PLATFORM_SERVICES, startPlatform } from '@storefront/platform';
import { pino } from 'pino';
import { runLoad, type LoadResult, type LoadTarget } from './load';
import { startReferences } from './references';
import { prepareScenarios } from './scenarios';
import { adminCaller, seedCatalog, seedFulfillment, seedOrders } from './seed';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const seconds = Number(arg('duration', '10'));
const connections = Number(arg('connections', '50'));
const only = new RegExp(arg('only', '.'));

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
      DB_POOL_SIZE: '10',
      SHOP_ADMIN_PASSWORD: ADMIN_PASSWORD,
      LOGIN_RATE_LIMIT_ENABLED: 'false',
      // Tracing's cost is measured by setting it (docs/operations.md, "Metrics and traces").
      OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT,
      ...events.env,
    },
    port: 0,
    logger: (name) => pino({ name, level: 'warn' }),
  });
  try {
    const caller = await adminCaller(platform, ADMIN_PASSWORD);
    const productIds = await seedCatalog(platform, caller, Number(arg('products', '1000')));
    const quoteRequest = await seedFulfillment(platform, caller);
    await seedOrders(platform, databases.get('orders')!.url, caller.userId, Number(arg('orders', '10000')));
    const scenarios = await prepareScenarios(platform.url, ADMIN_PASSWORD, productIds);
    const fulfillmentAddress = platform.services.find((s) => s.name === 'fulfillment')!.address;
    const refs = await startReferences(databases.get('customers')!.url, scenarios.meBody, {
      fulfillmentAddress,
      request: quoteRequest,
    });
    const references: LoadTarget[] = [
      { name: 'ref: bare Fastify, same bytes as /me', url: `${refs.url}/ref/bare` },
      { name: 'ref: Fastify -> gRPC -> service -> PG PK', url: `${refs.url}/ref/grpc-pg/${scenarios.adminId}` },
    ];
    scenarios.targets.push({ name: 'quote: rates + taxes, 10-line cart (gRPC)', url: `${refs.url}/bench/quote` });
    const results: LoadResult[] = [];
    for (const target of [...references, ...scenarios.targets]) {
      if (!references.includes(target) && !only.test(target.name)) continue;
      await runLoad(target, Math.min(2, seconds), connections); // warm-up
      const result = await runLoad(target, seconds, connections);
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

function print(results: LoadResult[]): void {
  const [bare, grpcPg] = results;
  const pad = (s: string, n: number) => s.padEnd(n);
  const width = Math.max(46, ...results.map((r) => r.name.length + 2));
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  console.log(`\nStorefront benchmark: ${seconds}s per route, ${connections} connections, Node ${process.version}\n`);
  console.log(`${pad("route", width)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}${'vs gRPC+PG'.padStart(11)}  errors`);
  for (const r of results) {
    const vsBare = `${((r.rps / bare.rps) * 100).toFixed(1)}%`.padStart(9);
    const vsRef = `${((r.rps / grpcPg.rps) * 100).toFixed(1)}%`.padStart(11);
    console.log(`${pad(r.name, width)}${num(r.rps)}${num(r.p50, 1)}${num(r.p99, 1)}${vsBare}${vsRef}  ${r.errors + r.non2xx}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
