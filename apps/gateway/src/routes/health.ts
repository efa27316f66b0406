import type { FastifyInstance } from 'fastify';
import { DomainError, toErrorBody } from '@storefront/errors';
import { anonymousCaller } from '@storefront/grpc-client';
import type { EventTransport } from '@storefront/events';
import { Type } from 'typebox';
import type { ServiceClients } from '../clients';
import { documented, errorResponses } from '../http/responses';

const doc = documented('gateway');
const Alive = Type.Object({ status: Type.String({ enum: ['ok'] }) }, { title: 'Alive' });
const Ready = Type.Object(
  {
    status: Type.String({ enum: ['ready', 'degraded'] }),
    down: Type.Optional(Type.Array(Type.String(), { description: 'What is not serving (degraded only).' })),
    services: Type.Record(Type.String(), Type.String(), { description: 'Service name -> SERVING / NOT_SERVING / UNAVAILABLE.' }),
  },
  { title: 'Ready' },
);
const ReadyQuery = Type.Object({
  strict: Type.Optional(Type.String({ enum: ['1', 'true'], description: 'Answer 503 unless everything is up (deploy gates).' })),
});

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
export function healthRoutes(app: FastifyInstance, clients: ServiceClients, transport: EventTransport): void {
  app.get(
    '/healthz',
    { config: { access: 'public' }, schema: doc('checkLiveness', 'Liveness: the process answers', { 200: Alive }) },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: {
        ...doc('checkReadiness', 'Readiness: the gateway can serve; names every backing service and the event bus', {
          200: Ready,
          ...errorResponses(503),
        }),
        querystring: ReadyQuery,
      },
    },
    async (request, reply) => {
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
      const strict = (request.query as { strict?: string }).strict;
      if (strict === '1' || strict === 'true') {
        const error = new DomainError('shop_not_ready', 503, `Not ready: ${down.join(', ')}.`, { services });
        return reply.code(503).send(toErrorBody(error));
      }
      return { status: 'degraded', down, services };
    },
  );
}
