import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { connectJetStream } from '@storefront/events';
import { Server, ServerCredentials, type ServiceError } from '@grpc/grpc-js';
import pg from 'pg';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import { fulfillment } from '@storefront/proto/fulfillment';

export interface References {
  url: string;
  close(): Promise<void>;
}

/**
 * The two reference paths every figure is compared with, built into the
 * harness so they run on the same machine in the same run:
 *  - `/ref/bare`: a bare Fastify route returning fixed bytes (those of GET /shop/v1/me);
 *  - `/ref/grpc-pg/:id`: Fastify -> one grpc-js unary call -> a service -> one
 *    Postgres primary-key SELECT (customers.users by id) -> proto -> JSON;
 *  - `/ref/write` (POST): Fastify -> one grpc-js unary call -> a service -> one
 *    Postgres INSERT -> one JetStream publish, awaited until the broker
 *    acknowledged it (what every state change with an event costs at least).
 */
export async function startReferences(
  customersDatabaseUrl: string,
  meBody: string,
  quote: { fulfillmentAddress: string; request: fulfillment.QuoteRequest },
  events: { NATS_URL: string; EVENTS_STREAM: string; EVENTS_SUBJECT_PREFIX: string },
): Promise<References> {
  const pool = new pg.Pool({ connectionString: customersDatabaseUrl, max: 10 });
  await pool.query('create table if not exists bench_ref_writes (id bigserial primary key, body jsonb not null, created_at timestamptz not null default now())');
  const transport = await connectJetStream({
    url: events.NATS_URL,
    stream: events.EVENTS_STREAM,
    subjectPrefix: events.EVENTS_SUBJECT_PREFIX,
    name: 'bench-reference',
    logger: pino({ level: 'warn' }),
  });
  const subject = transport.subjectFor('bench.reference_written.v1');
  const grpcServer = new Server();
  grpcServer.addService(WRITE_SERVICE, {
    write: (call: { request: { name: string } }, callback: (e: Error | null, r?: { id: number }) => void) => {
      pool
        .query<{ id: string }>('insert into bench_ref_writes (body) values ($1) returning id', [JSON.stringify(call.request)])
        .then(async ({ rows: [row] }) => {
          const id = randomUUID();
          await transport.publish({ subject, data: Buffer.from(JSON.stringify({ id: row.id })), headers: { 'Nats-Msg-Id': id } });
          callback(null, { id: Number(row.id) });
        })
        .catch((err) => callback(err));
    },
  } as never);
  grpcServer.addService(customers.CustomerServiceService, {
    getCustomer: (call: { request: customers.GetCustomerRequest }, callback: (e: ServiceError | null, r?: customers.GetCustomerResponse) => void) => {
      pool
        .query('select id, login, email, first_name, last_name, display_name from customers.users where id = $1', [call.request.id])
        .then(({ rows: [row] }) =>
          callback(null, {
            customer: customers.Customer.fromPartial({
              id: row.id,
              username: row.login,
              email: row.email,
              firstName: row.first_name,
              lastName: row.last_name,
              displayName: row.display_name,
            }),
          }),
        )
        .catch((err) => callback(err));
    },
  } as never);
  const port = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  const channel: Channel = openChannel('reference', `127.0.0.1:${port}`);
  const client = bindClient(channel, customers.CustomerServiceService);
  const writer = bindClient(channel, WRITE_SERVICE as never) as unknown as {
    write(r: { name: string }, c: ReturnType<typeof anonymousCaller>): Promise<{ id: number }>;
  };

  const app: FastifyInstance = Fastify();
  app.get('/ref/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(meBody));
  app.get<{ Params: { id: string } }>('/ref/grpc-pg/:id', async (request) => {
    const { customer } = await client.getCustomer({ id: Number(request.params.id) }, anonymousCaller(request.id));
    return { id: customer?.id, username: customer?.username, email: customer?.email };
  });
  app.post<{ Body: { name: string } }>('/ref/write', async (request) => {
    const { id } = await writer.write({ name: request.body?.name ?? '' }, anonymousCaller(request.id));
    return { id };
  });
  // The quote engine has no REST route of its own (cart/checkout will call it): measured through the same
  // Fastify -> one gRPC call shape as the reference.
  const quoteChannel = openChannel('fulfillment', quote.fulfillmentAddress);
  const quotes = bindClient(quoteChannel, fulfillment.QuoteServiceService);
  app.get('/bench/quote', async (request) => {
    const res = await quotes.quote(quote.request, anonymousCaller(request.id));
    return { total: res.totals?.total, rates: res.rates.length, tax: res.totals?.taxTotal };
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url,
    async close() {
      await app.close();
      channel.close();
      quoteChannel.close();
      grpcServer.forceShutdown();
      await transport.close();
      await pool.end();
    },
  };
}

const json = {
  serialize: (value: unknown) => Buffer.from(JSON.stringify(value)),
  deserialize: (bytes: Buffer) => JSON.parse(bytes.toString()),
};
/** The write reference's one method, JSON-encoded (no proto of its own; the bytes are a few dozen either way). */
const WRITE_SERVICE = {
  write: {
    path: '/bench.Reference/Write',
    requestStream: false,
    responseStream: false,
    requestSerialize: json.serialize,
    requestDeserialize: json.deserialize,
    responseSerialize: json.serialize,
    responseDeserialize: json.deserialize,
  },
};
