import { createServer } from 'node:net';
import type { Logger } from 'pino';
import { startService, type RunningService } from '@storefront/service-kit';
import { buildGateway, type Gateway } from '@storefront/gateway';
import type { EventTransport } from '@storefront/events';
import { PLATFORM_SERVICES } from './services';

export interface PlatformOptions {
  /** postgres:// URL of each service's database. */
  databaseUrl(service: string): string;
  /** Environment shared by every service and the gateway (NATS, secrets, admin, addons...). */
  env: NodeJS.ProcessEnv;
  /** One in-process event bus for everything (when there is no NATS). */
  transport?: EventTransport;
  /** Gateway port (0 = any free port). */
  port: number;
  host?: string;
  logger?(name: string): Logger | undefined;
  /**
   * Start the services side by side, as separate processes do in production
   * (the end-to-end tests: a stack per test file). Off by default: the
   * development launcher's embedded Postgres serves one connection at a time.
   */
  parallel?: boolean;
}

export interface Platform {
  url: string;
  services: RunningService[];
  gateway: Gateway;
  stop(): Promise<void>;
}

/**
 * Starts every service on its own gRPC port plus the gateway, all in this
 * process: the development launcher, the end-to-end tests and the benchmark
 * use it. Production runs each app as its own process (deploy/).
 */
export async function startPlatform(options: PlatformOptions): Promise<Platform> {
  // Ports are chosen before they are bound, so another process may take one in
  // between (parallel test workers): start again on fresh ports when that happens.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startPlatformOnce(options);
    } catch (err) {
      if (attempt >= 4 || !/EADDRINUSE/.test(String((err as Error)?.message ?? err))) throw err;
    }
  }
}

async function startPlatformOnce(options: PlatformOptions): Promise<Platform> {
  const services: RunningService[] = [];
  // Every service's port is chosen up front, so a service may also call one
  // started after it (payments -> orders for action-step results).
  const host = '127.0.0.1';
  const ports: Record<string, number> = {};
  const addresses: Record<string, string> = {};
  for (const { definition, addressVariable } of PLATFORM_SERVICES) {
    ports[definition.name] = await freePort(host);
    addresses[addressVariable] = `${host}:${ports[definition.name]}`;
  }
  const stopAll = async () => {
    for (const service of [...services].reverse()) await service.stop();
  };
  try {
    const start = ({ definition }: (typeof PLATFORM_SERVICES)[number]) =>
      startService(definition, {
        env: {
          GRPC_HOST: host,
          METRICS_PORT: '-1',
          ...options.env,
          ...addresses,
          GRPC_PORT: String(ports[definition.name]),
          DATABASE_URL: options.databaseUrl(definition.name),
        },
        transport: options.transport,
        logger: options.logger?.(definition.name),
      });
    if (options.parallel) {
      const started = await Promise.allSettled(PLATFORM_SERVICES.map(start));
      for (const result of started) if (result.status === 'fulfilled') services.push(result.value);
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    } else {
      for (const service of PLATFORM_SERVICES) services.push(await start(service));
    }
    const gateway = await buildGateway({
      env: { METRICS_PORT: '-1', ...options.env, ...addresses },
      transport: options.transport,
      logger: options.logger?.('gateway'),
    });
    const url = await gateway.app.listen({ host: options.host ?? '127.0.0.1', port: options.port });
    return {
      url,
      services,
      gateway,
      async stop() {
        await gateway.close();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/**
 * A port free right now on `host`, drawn at random below Linux's ephemeral
 * range (32768-60999), where `listen(0)` of other processes never lands; the
 * service binds it next.
 */
async function freePort(host: string): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
