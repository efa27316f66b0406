// Where the time goes: counts, per measured route, the work behind each
// response in the one server-side process: gRPC calls (by service), SQL
// statements (by schema) and socket writes to NATS (publishes, acks, pulls).
// On a 2-core machine those three are most of a route's cost (a statement or
// a NATS write is a loopback syscall that wakes another process; a gRPC call
// is two HTTP/2 streams), so "calls per response" says what a change saved
// where req/s is too noisy to. Asynchronous work (consumers, outbox relays)
// lands in the window of the requests that caused it, shifted by the delay.
import { Client as GrpcClient } from '@grpc/grpc-js';
import { Socket } from 'node:net';
import pg from 'pg';

export interface WorkCounts {
  grpc: Map<string, number>;
  sql: Map<string, number>;
  natsWrites: number;
}

const emptyCounts = (): WorkCounts => ({ grpc: new Map(), sql: new Map(), natsWrites: 0 });
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** `/shop.orders.v1.OrderCheckoutService/CreateOrder` -> `orders`; the bench's own -> `bench`. */
const serviceOf = (path: string) => /^\/shop\.(\w+)\./.exec(path)?.[1] ?? path.split('/')[1]?.split('.')[0] ?? 'other';
/** The schema a statement names first (`"cart"."checkouts"` -> `cart`); `begin`, `commit`, ... -> `other`. */
const schemaOf = (text: string) => /"(\w+)"\."\w+"/.exec(text)?.[1] ?? /\b(?:from|into|update)\s+(\w+)\./i.exec(text)?.[1] ?? 'other';

/**
 * Wraps grpc-js's unary call, pg's query and socket writes to the NATS port
 * for the life of the bench process (a measuring tool's instrumentation, not
 * the platform's). `take()` returns what was counted since the last call.
 */
export function countWork(natsUrl: string): { take(): WorkCounts } {
  let counts = emptyCounts();
  const natsPort = Number(new URL(natsUrl.replace(/^nats:/, 'http:')).port || 4222);

  const unary = GrpcClient.prototype.makeUnaryRequest;
  GrpcClient.prototype.makeUnaryRequest = function (this: GrpcClient, path: string, ...rest: unknown[]) {
    bump(counts.grpc, serviceOf(path));
    return (unary as (...args: unknown[]) => unknown).call(this, path, ...rest);
  } as typeof unary;

  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as { text?: string } | undefined)?.text;
    if (text) bump(counts.sql, schemaOf(text));
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof query;

  const write = Socket.prototype.write;
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    if (this.remotePort === natsPort) counts.natsWrites++;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;

  return {
    take() {
      const taken = counts;
      counts = emptyCounts();
      return taken;
    },
  };
}

/** One line per route: each figure per response, the largest parts named. */
export function describeWork(counts: WorkCounts, responses: number): string {
  const per = (n: number) => (n / Math.max(1, responses)).toFixed(1);
  const parts = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .filter(([, n]) => n / Math.max(1, responses) >= 0.05)
      .map(([k, n]) => `${k} ${per(n)}`)
      .join(', ');
  const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  return `gRPC ${per(total(counts.grpc))} (${parts(counts.grpc)}); SQL ${per(total(counts.sql))} (${parts(counts.sql)}); NATS writes ${per(counts.natsWrites)}`;
}
