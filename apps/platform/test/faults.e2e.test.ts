import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { databaseNameOf, withDatabaseName } from '@storefront/persistence';
import { startService, type RunningService } from '@storefront/service-kit';
import { silentLogger, TEST_DATABASE_URL, waitFor } from '@storefront/testing';
import { PLATFORM_SERVICES, type Platform } from '../src';
import { startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

// Fault tests on real processes (issue 8, "Done means"): the platform keeps
// serving through the loss of each dependency and is back within 5 s of its
// return. NATS here is this test's OWN nats-server (never the shared one);
// Postgres connections are terminated only for this test's databases.

const RECOVERY_MS = 5000;
const OUTAGE_MS = 15_000;
const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

let stack: Platform;
let nats: ChildProcess | undefined;
let natsPort = 0;
let natsDir = '';
let listener: EventTransport;
const createdEvents = new Set<number>();
const guest = () => new ShopClient(stack.url);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startNats(): Promise<void> {
  nats = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', natsDir], { stdio: 'ignore' });
  await waitFor(async () => {
    try {
      // Back = JetStream answers (a restarted server recovers its streams from disk first).
      const nc = await connect({ servers: `nats://127.0.0.1:${natsPort}`, reconnect: false });
      try {
        await (await jetstreamManager(nc)).getAccountInfo();
        return true;
      } finally {
        await nc.close();
      }
    } catch {
      return false;
    }
  }, 10_000);
}

async function stopNats(): Promise<void> {
  const proc = nats;
  nats = undefined;
  if (!proc || proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

/** Resolves with the ms it took until `probe` passed (polling every 50 ms). */
async function timeUntil(probe: () => Promise<boolean>, limitMs = 15_000): Promise<number> {
  const started = Date.now();
  await waitFor(probe, limitMs, 50);
  return Date.now() - started;
}

function countBy(values: Array<number | string>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
}

let registered = 0;
async function registerOne(): Promise<{ status: number; id?: number }> {
  const n = ++registered;
  const res = await guest().post('/shop/v1/auth/register', {
    email: `fault${n}@example.com`,
    password: 'fault-password-1',
    auto_login: false,
  });
  return { status: res.status, id: res.body?.user?.id };
}

beforeAll(async () => {
  natsPort = await freePort();
  natsDir = mkdtempSync(join(tmpdir(), 'harden-nats-'));
  await startNats();
  stack = await startStack({ NATS_URL: `nats://127.0.0.1:${natsPort}`, GRPC_DEADLINE_MS: '1500', LOGIN_RATE_LIMIT_ENABLED: 'false' });
  const env = stack.services[0].config;
  listener = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    name: 'faults-test',
    logger: silentLogger(),
  });
  await listener.consume('faults_test', listener.subjectFor(CustomerEvents.customerCreated.subject), async (m) => {
    createdEvents.add(Number(CustomerEvents.customerCreated.codec.decode(m.data).userId));
  });
});

afterAll(async () => {
  await listener?.close().catch(() => undefined);
  await stack?.stop();
  await stopNats();
  if (natsDir) rmSync(natsDir, { recursive: true, force: true });
  // Stopping seven services after a NATS restart and a catalog restart takes long on a loaded machine.
}, 300_000);

describe('fault tolerance on real processes', () => {
  it('survives every service database connection being terminated under load', async () => {
    const admin = new pg.Client({ connectionString: withDatabaseName(TEST_DATABASE_URL, 'postgres') });
    await admin.connect();
    const databases = stack.services.map((s) => databaseNameOf(s.config.DATABASE_URL));
    try {
      // Load: product reads (catalog, reader pool) and registrations (customers, ORM pool).
      let stop = false;
      const statuses: Array<number | string> = [];
      const load = (async () => {
        while (!stop) {
          const [read, write] = await Promise.all([
            guest().get('/shop/v1/shop_product').catch((err: Error) => ({ status: `${err.message}: ${String((err.cause as Error)?.message)}` })),
            registerOne().catch((err: Error) => ({ status: `${err.message}: ${String((err.cause as Error)?.message)}` })),
          ]);
          statuses.push(read.status as number, write.status as number);
        }
      })();
      await waitFor(() => statuses.length >= 10, 20_000);
      const killed = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = any($1) and pid <> pg_backend_pid()',
        [databases],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      const recovery = await timeUntil(async () => {
        const [read, write] = await Promise.all([guest().get('/shop/v1/shop_product'), registerOne()]);
        return read.status === 200 && write.status < 300;
      });
      stop = true;
      await load;
      process.stdout.write(`faults: ${killed.rowCount} connections terminated, serving again after ${recovery} ms\n`);
      expect(recovery).toBeLessThan(RECOVERY_MS);
      // Readiness follows at its next check (a service whose last check met a terminated connection still says so).
      await waitFor(() => stack.services.every((s) => s.health.status === 'SERVING'), RECOVERY_MS, 100).catch(() => undefined);
      for (const service of stack.services) expect(service.health.status).toBe('SERVING');
      process.stdout.write(`faults: load answers ${JSON.stringify(countBy(statuses))}\n`);
      expect(statuses.filter((s) => typeof s !== 'number' || (s >= 500 && s !== 503))).toEqual([]);
    } finally {
      await admin.end();
    }
  });

  it('keeps taking writes through a NATS outage and delivers every event after it', async () => {
    await stopNats();
    const during: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await registerOne();
      expect(res.status).toBeLessThan(300);
      if (res.id) during.push(res.id);
    }
    // Readiness: NATS loss is reported, not a reason to leave rotation.
    await Promise.all(stack.services.map((s) => s.health.refresh()));
    for (const service of stack.services) {
      expect(service.health.status).toBe('SERVING');
      expect(service.health.details.events).toBe(false);
    }
    const ready = await guest().get('/readyz');
    expect(ready.status).toBe(200);
    expect((await guest().get('/shop/v1/shop_product')).status).toBe(200);

    await startNats();
    // Publishing resumes: every service's outbox drains (nothing parked, nothing left behind).
    const left = async () => {
      const rows: unknown[] = [];
      for (const service of stack.services) {
        rows.push(...(await service.db.em().execute(`select '${service.name}' as service, subject, attempts, last_error, parked_at, claimed_until, next_attempt_at, occurred_at, now() as at from "${service.name}"."outbox"`)));
      }
      return rows;
    };
    const published = await timeUntil(async () => (await left()).length === 0, 20_000).catch(async () => {
      throw new Error(`outbox rows left: ${JSON.stringify(await left())}`);
    });
    // And every event written during the outage reaches a durable consumer.
    const delivered = await timeUntil(async () => during.every((id) => createdEvents.has(id)), 20_000);
    process.stdout.write(
      `faults: NATS back; outboxes drained after ${published} ms, the ${during.length} events written during the outage consumed ${delivered} ms later\n`,
    );
    // Measured from JetStream answering again. It was 4.5-5.1 s while a publish issued during the
    // outage sat in the client's reconnect buffer for the whole 5 s JetStream timeout; the transport
    // now fails fast while disconnected and the relay drains on reconnect.
    expect(published).toBeLessThan(RECOVERY_MS);
    // The gateway's own connection comes back too (each client reconnects on its own
    // 500 ms + jitter schedule, so it may trail the services' relays).
    const gatewayEvents = await timeUntil(async () => (await guest().get('/readyz')).body.services?.events === 'SERVING');
    expect(gatewayEvents).toBeLessThan(RECOVERY_MS);
  });

  it('answers 503 only on the routes of a service stopped for 15 s, and recovers within 5 s of its restart', async () => {
    const index = stack.services.findIndex((s) => s.name === 'catalog');
    const catalog = stack.services[index];
    const port = catalog.grpcPort;
    const env = Object.fromEntries(
      Object.entries(catalog.config).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]),
    );
    await catalog.stop();

    expectError(await guest().get('/shop/v1/shop_product'), 503, 'shop_service_unavailable');
    // Other services' routes keep answering; the gateway stays ready.
    expect((await guest().get('/shop/v1/checkout/states?country_code=US')).status).toBe(200);
    // A write to customers (scrypt and an insert) can outlast this stack's 1.5 s deadline once on a
    // loaded CI machine (503): what is asserted is that customers keeps taking writes, within seconds.
    const written = await timeUntil(async () => (await registerOne()).status < 300, RECOVERY_MS).catch(() => Infinity);
    expect(written).toBeLessThan(RECOVERY_MS);
    const ready = await guest().get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.down).toEqual(['catalog']);
    // A long outage: 15 s of failing calls is where grpc-js's default reconnect backoff
    // (1 s x 1.6^n, up to 120 s) would already wait over 5 s before its next try; the
    // bounded backoff (libs/grpc-client) keeps retrying every 2 s at most.
    const outageEnds = Date.now() + OUTAGE_MS;
    while (Date.now() < outageEnds) {
      expectError(await guest().get('/shop/v1/shop_product'), 503, 'shop_service_unavailable');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }

    const definition = PLATFORM_SERVICES.find((s) => s.definition.name === 'catalog')!.definition;
    const restarted: RunningService = await startService(definition, {
      env: { ...env, GRPC_PORT: String(port) },
      logger: silentLogger(),
    });
    stack.services[index] = restarted;
    const recovery = await timeUntil(async () => (await guest().get('/shop/v1/shop_product')).status === 200);
    process.stdout.write(`faults: catalog restarted; gateway serving its routes again after ${recovery} ms\n`);
    expect(recovery).toBeLessThan(RECOVERY_MS);
  });
});
