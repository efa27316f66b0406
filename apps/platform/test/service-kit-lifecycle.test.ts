import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { Type } from 'typebox';
import { DomainError, notFound } from '@storefront/errors';
import { connectivityState } from '@grpc/grpc-js';
import { anonymousCaller, bindClient, openChannel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import { health } from '@storefront/proto';
import { sqlMigration, withDatabaseName, databaseNameOf } from '@storefront/persistence';
import { TEST_DATABASE_URL } from '@storefront/testing';
import { defineService } from '@storefront/service-kit';
import { startTestService } from '@storefront/service-kit/testing';

// libs/service-kit's lifecycle, here beside the services' proto libs so the kit's own tests depend
// on no service's API. A tiny service built with the kit: one RPC of a real definition, one table.
const echo = defineService({
  name: 'echo',
  config: Type.Object({}),
  entities: [],
  migrations: [sqlMigration('0001', ['create table "echo"."things" ("id" int primary key)'])],
  setup(ctx) {
    ctx.addGrpcService(customers.SettingsServiceService, {
      async getSiteSettings() {
        throw notFound('echo_missing', 'Nothing here.', { hint: 'none' });
      },
      async updateSiteSettings() {
        throw new Error('boom: select * from secrets');
      },
      async getStoreSettings() {
        return {};
      },
    });
  },
});

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups) await c();
});

describe('a service started with the kit', () => {
  it('serves gRPC, maps domain errors, hides internal ones, and drains on stop', async () => {
    const service = await startTestService(echo, { env: { SHUTDOWN_TIMEOUT_MS: '500' } });
    cleanups.push(() => service.stop());
    const channel = openChannel('echo', service.address, 2000);
    cleanups.push(async () => channel.close());
    const caller = anonymousCaller('t');
    const settings = bindClient(channel, customers.SettingsServiceService);
    const healthClient = bindClient(channel, health.HealthService);

    expect((await healthClient.check({ service: '' }, caller)).status).toBe('SERVING');
    expect((await healthClient.check({ service: 'shop.customers.v1.SettingsService' }, caller)).status).toBe('SERVING');

    const missing = await settings.getSiteSettings({}, caller).catch((e) => e as DomainError);
    expect(missing).toMatchObject({ code: 'echo_missing', status: 404, message: 'Nothing here.', data: { hint: 'none' } });
    const internal = await settings.updateSiteSettings({}, caller).catch((e) => e as DomainError);
    expect(internal).toMatchObject({ code: 'shop_internal_error', status: 500, message: 'Internal server error.' });

    await service.stop();
    const afterStop = await healthClient.check({ service: '' }, caller).catch((e) => e as DomainError);
    expect(afterStop).toMatchObject({ code: 'shop_service_unavailable', status: 503 });
  });

  it('exposes Prometheus metrics with gRPC latencies', async () => {
    const service = await startTestService(echo, { env: { METRICS_PORT: '0' } });
    cleanups.push(() => service.stop());
    const channel = openChannel('echo', service.address);
    cleanups.push(async () => channel.close());
    await bindClient(channel, customers.SettingsServiceService).getStoreSettings({}, anonymousCaller('m'));
    const text = await (await fetch(`http://127.0.0.1:${service.metricsPort}/metrics`)).text();
    expect(text).toMatch(/grpc_server_handling_seconds_count\{[^}]*method="\/shop.customers.v1.SettingsService\/GetStoreSettings"[^}]*code="OK"[^}]*\} 1/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('reports NOT_SERVING while its database is unreachable', async () => {
    const service = await startTestService(echo);
    cleanups.push(() => service.stop());
    expect(service.health.status).toBe('SERVING');
    const admin = new pg.Client({ connectionString: withDatabaseName(TEST_DATABASE_URL, 'postgres') });
    await admin.connect();
    const name = databaseNameOf(service.config.DATABASE_URL);
    // Refuse new connections and cut the open ones: the database is "down" for the service.
    await admin.query(`alter database "${name}" with allow_connections false`);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await service.health.refresh();
    expect(service.health.status).toBe('NOT_SERVING');
    expect(service.health.details).toMatchObject({ database: false });
    // Liveness depends on nothing outside the process: the pod is not restarted for a database outage.
    const channel = openChannel('echo', service.address, 2000);
    const probe = bindClient(channel, health.HealthService);
    expect((await probe.check({ service: 'liveness' }, anonymousCaller('l'))).status).toBe('SERVING');
    expect((await probe.check({ service: '' }, anonymousCaller('r'))).status).toBe('NOT_SERVING');
    channel.close();
    await admin.query(`alter database "${name}" with allow_connections true`);
    await admin.end();
    await service.health.refresh();
    expect(service.health.status).toBe('SERVING');
  });
  it('closes client connections after GRPC_MAX_CONNECTION_AGE_MS; calls go on over a new connection', async () => {
    const service = await startTestService(echo, { env: { GRPC_MAX_CONNECTION_AGE_MS: '1000' } });
    cleanups.push(() => service.stop());
    const channel = openChannel('echo', service.address, 2000);
    cleanups.push(async () => channel.close());
    const settings = bindClient(channel, customers.SettingsServiceService);
    const grpcChannel = channel.client.getChannel();
    const states: connectivityState[] = [];
    const watch = (state: connectivityState) =>
      grpcChannel.watchConnectivityState(state, Date.now() + 60_000, () => {
        const next = grpcChannel.getConnectivityState(false);
        states.push(next);
        if (next !== connectivityState.SHUTDOWN) watch(next);
      });
    watch(grpcChannel.getConnectivityState(true));
    let calls = 0;
    // Calls for a little over three connection ages (the server adds up to 10 % jitter to each): none fails.
    for (const end = Date.now() + 3_500; Date.now() < end; calls++) {
      await settings.getStoreSettings({}, anonymousCaller('t'));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(calls).toBeGreaterThan(20);
    // Each closed connection is replaced by a new one (READY again).
    expect(states.filter((s) => s === connectivityState.READY).length).toBeGreaterThanOrEqual(3);
  });
});
