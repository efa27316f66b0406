import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { waitFor } from '@storefront/testing';
import { PLATFORM_SERVICES, type Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { ShopClient } from './support/client';

// Graceful shutdown of the gateway as a real process (issue 8: "8 of 20
// requests in flight at SIGTERM were reset"): SIGTERM stops taking
// connections, lets the requests already in flight finish, then exits 0.
// The services run in-process; the gateway is its own child process. The
// requests are held in flight by a lock on the products table, released
// only once the gateway has begun shutting down.

const IN_FLIGHT = 20;
const GATEWAY_MAIN = fileURLToPath(new URL('../../gateway/src/main.ts', import.meta.url));

let stack: Platform;
let gateway: ChildProcess | undefined;

beforeAll(async () => {
  // Pools big enough that all twenty reads wait on the lock, not for a connection.
  stack = await startStack({ DB_POOL_SIZE: '50' });
  const admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  expect((await admin.post('/shop/v1/shop_product', { title: 'Lamp', status: 'publish' })).status).toBe(201);
});

afterAll(async () => {
  if (gateway && gateway.exitCode === null) gateway.kill('SIGKILL');
  await stack?.stop();
});

/** One request on its own connection; resolves with the status, or the error's code. */
function get(url: string, timeoutMs?: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

describe('gateway shutdown on SIGTERM (real process)', () => {
  it(`finishes all ${IN_FLIGHT} requests in flight, refuses new connections, and exits 0`, async () => {
    const config = stack.services[0].config;
    const addresses = Object.fromEntries(
      PLATFORM_SERVICES.map(({ definition, addressVariable }) => [
        addressVariable,
        stack.services.find((s) => s.name === definition.name)!.address,
      ]),
    );
    gateway = spawn(process.execPath, ['--import', 'tsx', GATEWAY_MAIN], {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        NODE_NO_WARNINGS: '1',
        HOST: '127.0.0.1',
        PORT: '0',
        METRICS_PORT: '-1',
        LOG_LEVEL: 'info',
        GRPC_DEADLINE_MS: '120000',
        SHUTDOWN_TIMEOUT_MS: '60000',
        NATS_URL: String(config.NATS_URL),
        EVENTS_STREAM: String(config.EVENTS_STREAM),
        EVENTS_SUBJECT_PREFIX: String(config.EVENTS_SUBJECT_PREFIX),
        ...addresses,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    gateway.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    gateway.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => gateway!.once('exit', (code) => resolve(code)));

    // Compiling the gateway with tsx takes 20 s and more on a busy machine.
    const url = await waitFor(() => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1], 240_000, 100);
    const products = `${url}/shop/v1/shop_product`;
    expect(await get(products)).toBe(200);
    const incoming = () => stdout.split('\n').filter((line) => line.includes('"incoming request"')).length;
    const before = incoming();

    const admin = new pg.Client({ connectionString: stack.services.find((s) => s.name === 'catalog')!.config.DATABASE_URL });
    await admin.connect();
    try {
      await admin.query('begin');
      await admin.query('lock table "catalog"."products" in access exclusive mode');
      let answered = 0;
      const statuses = Promise.all(
        Array.from({ length: IN_FLIGHT }, (_, i) =>
          // Distinct queries: no response cache can answer one from another.
          get(`${products}?search=lamp&per_page=${i + 1}`).finally(() => void answered++),
        ),
      );
      // In flight: the gateway has taken every request, none is answered (the lock holds them).
      await waitFor(() => incoming() - before >= IN_FLIGHT, 60_000);
      expect(answered).toBe(0);

      gateway.kill('SIGTERM');
      await waitFor(() => stderr.includes('SIGTERM received'), 30_000);
      // Stops taking connections while the twenty are still running...
      await waitFor(async () => (await get(products, 1000)) === 'ECONNREFUSED', 30_000);
      expect(answered).toBe(0);
      // ...and finishes them once the database answers.
      await admin.query('commit');
      expect(await statuses).toEqual(Array(IN_FLIGHT).fill(200));
      expect(await exited).toBe(0);
      expect(stderr).toContain('SIGTERM received: shutting down gateway');
    } finally {
      await admin.query('rollback').catch(() => undefined);
      await admin.end();
    }
  }, 400_000);
});
