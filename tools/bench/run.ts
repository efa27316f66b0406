// `npm run bench [-- --duration=10 --connections=50 --only=<regex> --rounds=1 --products=1000 --orders=10000 --place-carts=1750xrounds --alone-rate=50 --alone-duration=5 --scrypt-cost=N --db-pool=10 --profile=<dir>]`
// Boots the platform on the real Postgres and NATS (fresh databases, like the
// tests), measures each route with autocannon from a separate process, and
// prints req/s, p50, p99 and each route's ratio to two reference paths
// measured in the same run (see references.ts), so figures compare across
// machines. Everything server-side shares one process: ratios, not absolute
// numbers, are the point. `--profile=<dir>` writes a CPU profile of the
// server side per measured route (open it in Chrome DevTools or speedscope).
// `--rounds=N` measures the references and the routes N times in turn and
// prints medians, each ratio taken within its round (the machine's drift
// between a reference and a route measured minutes apart cancels out).
// Each route is also measured alone (one connection, at most `--alone-rate`
// requests a second): at 50 connections a response mostly waits behind the
// others (p99 ~ connections / throughput), so the saturated p99 repeats the
// throughput ratio; the alone p99 is the route's own time (its hops, its
// statements, its pauses) against the reference's.
// Below the table: the work behind one response of each route (gRPC calls,
// SQL statements, NATS writes; work-counters.ts), where the time goes.
import { createTestDatabase, createTestEvents, type TestDatabase } from '@storefront/testing';
import { PLATFORM_SERVICES, startPlatform } from '@storefront/platform';
import { writeFile, mkdir } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { pino } from 'pino';
import { runLoad, type LoadResult, type LoadTarget } from './load';
import { startReferences } from './references';
import { prepareScenarios } from './scenarios';
import { adminCaller, autovacuumRuns, seedCatalog, seedFulfillment, seedOrders, vacuumAnalyze, withRetries } from './seed';
import { countWork, describeWork } from './work-counters';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const seconds = Number(arg('duration', '10'));
const connections = Number(arg('connections', '50'));
const only = new RegExp(arg('only', '.'));
const profileDir = arg('profile', '');
const rounds = Math.max(1, Number(arg('rounds', '1')) || 1);
const aloneRate = Math.max(1, Number(arg('alone-rate', '50')) || 50);
const aloneSeconds = Math.max(1, Number(arg('alone-duration', '5')) || 5);

const ADMIN_PASSWORD = 'bench-admin-password';

async function main(): Promise<void> {
  const events = createTestEvents();
  const work = countWork(events.env.NATS_URL);
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
    const scenarios = await prepareScenarios(platform.url, ADMIN_PASSWORD, productIds, only.test('checkout/place') ? Number(arg('place-carts', String((1500 + aloneRate * aloneSeconds) * rounds))) : 0);
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
    // The background CPU of an idle platform (outbox relays, timers), subtracted from each route's figure.
    const idleStart = process.cpuUsage();
    const idleWall = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = process.cpuUsage(idleStart);
    const idleUsPerMs = (idle.user + idle.system) / (performance.now() - idleWall);
    const measured = [...references, ...scenarios.targets.filter((t) => only.test(t.name))];
    // A request pool (one prepared cart per placement) is shared out between the rounds.
    const pools = new Map(measured.filter((t) => t.pool).map((t) => [t, share(t.pool!, rounds)]));
    // Production Postgres runs autovacuum. On a server with it off (this CI machine's), every route would be
    // measured against all earlier routes' dead rows (outbox claims and deletes, counters, carts): between
    // routes, the bench does the work autovacuum would have done by then.
    const vacuumBetweenRoutes = !(await autovacuumRuns(databases.get('orders')!.url));
    if (vacuumBetweenRoutes) process.stderr.write('  autovacuum is off on this server: the bench vacuums between routes\n');
    const results: LoadResult[][] = [];
    for (let round = 0; round < rounds; round++) {
      const inRound: LoadResult[] = [];
      for (const target of measured) {
        await settle(idleUsPerMs);
        if (vacuumBetweenRoutes) for (const database of databases.values()) await vacuumAnalyze(database.url);
        if (target.pool) target.pool = pools.get(target)![round];
        await runLoad(target, Math.min(2, seconds), connections, true); // warm-up
        const alone = await runLoad(target, aloneSeconds, connections, false, { ratePerSecond: aloneRate });
        await settle(idleUsPerMs);
        work.take();
        const cpuBefore = process.cpuUsage();
        const wallBefore = performance.now();
        const result = await profiled(rounds > 1 ? `${target.name} round ${round + 1}` : target.name, () => runLoad(target, seconds, connections));
        const cpu = process.cpuUsage(cpuBefore);
        const background = idleUsPerMs * (performance.now() - wallBefore);
        result.cpuPerRequestUs = Math.max(0, cpu.user + cpu.system - background) / Math.max(1, result.requests);
        result.work = describeWork(work.take(), result.requests);
        result.aloneP50 = alone.p50;
        result.aloneP99 = alone.p99;
        result.errors += alone.errors;
        result.non2xx += alone.non2xx;
        inRound.push(result);
        const figures = `${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms (alone ${alone.p99} ms), ${(result.cpuPerRequestUs ?? 0).toFixed(0)} us CPU, process heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`;
        process.stderr.write(`  measured ${target.name}${rounds > 1 ? ` (round ${round + 1}/${rounds})` : ''}: ${figures}\n`);
      }
      results.push(inRound);
    }
    await refs.close();
    print(results, measured.map((t) => (t.method ?? 'GET') !== 'GET'));
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

/**
 * Waits (at most 60 s) until the platform is back to its idle background: what a
 * route leaves behind (a placement's events still being consumed, emails sent)
 * must not be measured against the next route.
 */
async function settle(idleUsPerMs: number): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    const start = process.cpuUsage();
    const wall = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / (performance.now() - wall) <= Math.max(2 * idleUsPerMs, 50)) return;
  }
}

/** `items` in `parts` consecutive slices of (nearly) equal length. */
function share<T>(items: T[], parts: number): T[][] {
  const size = Math.ceil(items.length / parts);
  return Array.from({ length: parts }, (_, i) => items.slice(i * size, (i + 1) * size));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One line per route: medians over the rounds, each ratio computed against the references of its own round. */
function print(rounds: LoadResult[][], writes: boolean[]): void {
  const pad = (s: string, n: number) => s.padEnd(n);
  const first = rounds[0];
  const width = Math.max(46, ...first.map((r) => r.name.length + 2));
  const num = (n: number, d = 0) => n.toFixed(d).padStart(9);
  const pct = (n: number, w: number) => `${(n * 100).toFixed(1)}%`.padStart(w);
  const times = (n: number, w: number) => `${n.toFixed(2)}x`.padStart(w);
  console.log(`\nStorefront benchmark: ${seconds}s per route, ${connections} connections, ${rounds.length} round(s), Node ${process.version}\n`);
  // cpu: server-process CPU per response (gateway + services, less the idle platform's background; not
  // Postgres, not the load generator), and the reference's figure over the route's: a throughput ratio that
  // holds up better than req/s on a machine shared with other work. `vs write`: ratio to the write reference.
  // `p99 x ref`: the route's p99 over its reference's (gRPC+PG for reads, write for writes), at 50
  // connections; `alone`: p50 and p99 one request at a time, and that p99 over its reference's.
  console.log(
    `${pad('route', width)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'vs bare'.padStart(9)}` +
      `${'vs gRPC+PG'.padStart(11)}${'vs write'.padStart(10)}${'p99 x ref'.padStart(10)}${'cpu us'.padStart(9)}${'cpu vs ref'.padStart(11)}` +
      `${'alone p50'.padStart(10)}${'alone p99'.padStart(10)}${'x ref'.padStart(8)}  errors`,
  );
  first.forEach((route, i) => {
    const of = (f: (r: LoadResult, refs: LoadResult[]) => number) => median(rounds.map((round) => f(round[i], round)));
    console.log(
      `${pad(route.name, width)}${num(of((r) => r.rps))}${num(of((r) => r.p50), 1)}${num(of((r) => r.p99), 1)}` +
        `${pct(of((r, [bare]) => r.rps / bare.rps), 9)}${pct(of((r, [, grpcPg]) => r.rps / grpcPg.rps), 11)}` +
        `${pct(of((r, [, , write]) => r.rps / write.rps), 10)}` +
        `${times(of((r, [, grpcPg, write]) => r.p99 / (writes[i] ? write : grpcPg).p99), 10)}` +
        `${num(of((r) => r.cpuPerRequestUs ?? 0))}${pct(of((r, [, grpcPg]) => (grpcPg.cpuPerRequestUs ?? 0) / (r.cpuPerRequestUs || 1)), 11)}` +
        `${num(of((r) => r.aloneP50 ?? 0), 1).padStart(10)}${num(of((r) => r.aloneP99 ?? 0), 1).padStart(10)}` +
        `${times(of((r, [, grpcPg, write]) => (r.aloneP99 ?? 0) / ((writes[i] ? write : grpcPg).aloneP99 || 1)), 8)}` +
        `  ${rounds.reduce((n, round) => n + round[i].errors + round[i].non2xx, 0)}`,
    );
  });
  // The last round's counts (they hardly move between rounds): per response, measured window, all services.
  console.log(`\nWork per response (round ${rounds.length}; consumers and relays included as they ran in the window)`);
  for (const route of rounds[rounds.length - 1]) console.log(`${pad(route.name, width)}${route.work ?? ''}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
