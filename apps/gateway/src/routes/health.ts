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
    status: Type.String({ enum: ['ready'] }),
    services: Type.Record(Type.String(), Type.String(), { description: 'Service name -> SERVING / NOT_SERVING / UNAVAILABLE.' }),
  },
  { title: 'Ready' },
);

const CHECK_DEADLINE_MS = 1000;

/**
 * `/healthz`: the process is alive. `/readyz`: every backing service answers
 * grpc.health.v1 SERVING (which means its Postgres and event bus are up) and
 * the gateway's own event subscription is connected; otherwise 503 naming
 * what is not ready.
 */
export function healthRoutes(app: FastifyInstance, clients: ServiceClients, transport: EventTransport): void {
  app.get('/healthz', { config: { access: 'public' }, schema: doc('checkLiveness', 'Liveness: the process answers', { 200: Alive }) }, async () => ({ status: 'ok' }));

  app.get(
    '/readyz',
    {
      config: { access: 'public' },
      schema: doc('checkReadiness', 'Readiness: every backing service and the event bus are up', { 200: Ready, ...errorResponses(503) }),
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
    const error = new DomainError('shop_not_ready', 503, `Not ready: ${down.join(', ')}.`, { services });
    return reply.code(503).send(toErrorBody(error));
  });
}
