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
  const services: RunningService[] = [];
  const addresses: Record<string, string> = {};
  const stopAll = async () => {
    for (const service of [...services].reverse()) await service.stop();
  };
  try {
    for (const { definition, addressVariable } of PLATFORM_SERVICES) {
      const service = await startService(definition, {
        env: {
          GRPC_HOST: '127.0.0.1',
          GRPC_PORT: '0',
          METRICS_PORT: '-1',
          ...options.env,
          ...addresses,
          DATABASE_URL: options.databaseUrl(definition.name),
        },
        transport: options.transport,
        logger: options.logger?.(definition.name),
      });
      services.push(service);
      addresses[addressVariable] = service.address;
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
