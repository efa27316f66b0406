import { afterAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { ConfigError } from '@storefront/service-kit';
import { silentLogger } from '@storefront/testing';
import { buildGateway, type Gateway } from '../src/app';
import { SERVICE_BINDINGS } from '../src/services';

const started: Gateway[] = [];
afterAll(async () => {
  for (const gateway of started) await gateway.close();
});

async function configProblems(env: NodeJS.ProcessEnv): Promise<string[]> {
  try {
    started.push(await buildGateway({ env, logger: silentLogger() }));
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('gateway bootstrap (the runtime every app shares)', () => {
  it('refuses a production boot without NATS, the session secret or any service address, naming each', async () => {
    const problems = await configProblems({ NODE_ENV: 'production', METRICS_PORT: '-1' });
    const required = ['NATS_URL', 'SESSION_SECRET', ...SERVICE_BINDINGS.map((b) => b.address)];
    expect(problems.sort()).toEqual(required.map((name) => `${name} is required when NODE_ENV=production`).sort());
    expect(required).toEqual(expect.arrayContaining(['CUSTOMERS_GRPC_ADDR', 'CATALOG_GRPC_ADDR', 'FULFILLMENT_GRPC_ADDR']));
  });

  it('validates the shared runtime variables it does not redeclare', async () => {
    const problems = await configProblems({ LOG_LEVEL: 'loud', METRICS_PORT: '-7', NATS_URL: 'localhost:4222' });
    expect([...new Set(problems.map((p) => p.split(' ')[0]))].sort()).toEqual(['LOG_LEVEL', 'METRICS_PORT', 'NATS_URL']);
  });

  it('in development runs with only the customers default and leaves the other services out', async () => {
    const problems = await configProblems({ NODE_ENV: 'development', METRICS_PORT: '-1' });
    expect(problems).toEqual([]);
    const gateway = started.at(-1)!;
    // No CATALOG_GRPC_ADDR in development: the product routes are simply not there.
    const res = await gateway.app.inject({ method: 'GET', url: '/shop/v1/shop_product' });
    expect(res.statusCode).toBe(404);
    expect((await gateway.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('prints the list of bad variables without a stack and exits 1', async () => {
    // Jest runs from the workspace root.
    const main = resolve('apps/gateway/src/main.ts');
    const tsx = resolve('node_modules/.bin/tsx');
    const result = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = execFile(tsx, [main], { env: { PATH: process.env.PATH, NODE_ENV: 'production' }, timeout: 60_000 }, () => undefined);
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk));
      child.on('exit', (code) => done({ code, stderr }));
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('gateway failed to start: Invalid configuration:');
    expect(result.stderr).toContain('  - CATALOG_GRPC_ADDR is required when NODE_ENV=production');
    expect(result.stderr).toContain('  - NATS_URL is required when NODE_ENV=production');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});
