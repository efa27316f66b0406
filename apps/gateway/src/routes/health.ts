import type { FastifyInstance } from 'fastify';
import { DomainError, toErrorBody } from '@storefront/errors';
import { anonymousCaller } from '@storefront/grpc-client';
import type { EventTransport } from '@storefront/events';
import type { ServiceClients } from '../clients';
import type { SiteSettingsCache } from '../site-settings';

const CHECK_DEADLINE_MS = 1000;

/**
 * `/healthz` (liveness): the process answers; depends on nothing outside it.
 *
 * `/readyz` (readiness, "can serve"): the gateway itself is up, so it stays in
 * rotation when one backing service is down — that service's routes answer
 * 503 `shop_service_unavailable`, every other route keeps working. The body
 * names each service's grpc.health.v1 status and the event bus, with
 * `status: "ready"` when all are SERVING, `"degraded"` otherwise.
 * `/readyz?strict=1` answers 503 `shop_not_ready` unless everything is up
 * (smoke tests, deploy gates).
 */
export function healthRoutes(
  app: FastifyInstance,
  clients: ServiceClients,
  transport: EventTransport,
  _site?: SiteSettingsCache,
): void {
  app.get('/healthz', { config: { access: 'public' } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { access: 'public' } }, async (request, reply) => {
    const caller = anonymousCaller(request.id);
    const entries = await Promise.all(
      Object.entries(clients.health).map(async ([name, client]) => {
        try {
          const res = await client.check({ service: '' }, caller, { deadlineMs: CHECK_DEADLINE_MS });
          return [name, res.status] as const;
        } catch {
          return [name, 'UNAVAILABLE'] as const;
        }
      }),
    );
    const services: Record<string, string> = Object.fromEntries(entries);
    services.events = transport.isConnected() ? 'SERVING' : 'UNAVAILABLE';
    const down = Object.entries(services).filter(([, status]) => status !== 'SERVING').map(([name]) => name);
    if (!down.length) return { status: 'ready', services };
    const strict = (request.query as Record<string, unknown> | undefined)?.strict;
    if (strict === '1' || strict === 'true') {
      const error = new DomainError('shop_not_ready', 503, `Not ready: ${down.join(', ')}.`, { services });
      return reply.code(503).send(toErrorBody(error));
    }
    return { status: 'degraded', down, services };
  });
}
