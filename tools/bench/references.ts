import Fastify, { type FastifyInstance } from 'fastify';
import { Server, ServerCredentials, type ServiceError } from '@grpc/grpc-js';
import pg from 'pg';
import { anonymousCaller, bindClient, openChannel, type Channel } from '@storefront/grpc-client';
import { customers, fulfillment } from '@storefront/proto';

export interface References {
  url: string;
  close(): Promise<void>;
}

/**
 * The two reference paths every figure is compared with, built into the
 * harness so they run on the same machine in the same run:
 *  - `/ref/bare`: a bare Fastify route returning fixed bytes (those of GET /shop/v1/me);
 *  - `/ref/grpc-pg/:id`: Fastify -> one grpc-js unary call -> a service -> one
 *    Postgres primary-key SELECT (customers.users by id) -> proto -> JSON.
 */
export async function startReferences(
  customersDatabaseUrl: string,
  meBody: string,
  quote: { fulfillmentAddress: string; request: fulfillment.QuoteRequest },
): Promise<References> {
  const pool = new pg.Pool({ connectionString: customersDatabaseUrl, max: 10 });
  const grpcServer = new Server();
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

  const app: FastifyInstance = Fastify();
  app.get('/ref/bare', async (_req, reply) => reply.type('application/json; charset=utf-8').send(meBody));
  app.get<{ Params: { id: string } }>('/ref/grpc-pg/:id', async (request) => {
    const { customer } = await client.getCustomer({ id: Number(request.params.id) }, anonymousCaller(request.id));
    return { id: customer?.id, username: customer?.username, email: customer?.email };
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
      await pool.end();
    },
  };
}
