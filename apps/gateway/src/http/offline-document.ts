import type { FastifyInstance } from 'fastify';
import { buildGateway, GatewayConfigSchema } from '../app';

/**
 * The gateway with every route registered and no service reachable: enough
 * to produce its OpenAPI document deterministically, without a database,
 * NATS or any service running (gRPC channels connect lazily and nothing is
 * called). Every optional `<SVC>_GRPC_ADDR` is set so that the routes of
 * every service are registered.
 */
export async function withOfflineGateway<T>(use: (app: FastifyInstance) => Promise<T>): Promise<T> {
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0' };
  for (const name of Object.keys(GatewayConfigSchema.properties)) {
    if (name.endsWith('_GRPC_ADDR')) env[name] = '127.0.0.1:9';
  }
  const gateway = await buildGateway({ env });
  try {
    return await use(gateway.app);
  } finally {
    await gateway.close();
  }
}

/** The OpenAPI document of this build, as `npm run client:gen` writes it (stable key order). */
export async function offlineOpenApiDocument(): Promise<Record<string, unknown>> {
  return withOfflineGateway(async (app) => JSON.parse(JSON.stringify(app.swagger())) as Record<string, unknown>);
}
