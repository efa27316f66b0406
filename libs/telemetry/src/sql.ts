import { SpanKind, type Tracing, failSpan } from './tracing';
import { currentTraceparent } from './trace-context';

interface QueryableClient {
  query: (...args: any[]) => unknown;
}

/**
 * Wraps one `pg` client's `query` so every statement run while a request or
 * an event is being handled (a current traceparent) becomes a CLIENT span
 * under it. Applied per pool connection (the pools' `connect` event), so each
 * service's statements go to that service's tracer even with every service
 * in one process. Statements outside a trace (the outbox relay's polling)
 * record nothing; streaming (cursor) queries pass through.
 */
export function traceQueries(tracing: Tracing, database: string): (client: QueryableClient) => void {
  return (client) => {
    const query = client.query;
    client.query = function tracedQuery(this: unknown, ...args: any[]) {
      const parent = currentTraceparent();
      const first = args[0];
      if (!parent || typeof first?.submit === 'function') return query.apply(this, args);
      const text: string = typeof first === 'string' ? first : String(first?.text ?? '');
      const span = tracing.start(operationOf(text), SpanKind.CLIENT, parent, {
        'db.system.name': 'postgresql',
        'db.namespace': database,
        'db.query.text': text.length > 2000 ? `${text.slice(0, 2000)}...` : text,
      });
      const finish = (err: unknown) => {
        if (err) failSpan(span, err);
        span.end();
      };
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        // pg-pool's own `pool.query` passes a callback.
        args[args.length - 1] = function tracedCallback(this: unknown, err: unknown, ...rest: unknown[]) {
          finish(err);
          return last.call(this, err, ...rest);
        };
        return query.apply(this, args);
      }
      const result = query.apply(this, args) as Promise<unknown>;
      result.then(() => finish(undefined), finish);
      return result;
    };
  };
}

/** `SELECT`, `INSERT`... : span names stay low-cardinality; the text is an attribute. */
function operationOf(text: string): string {
  const word = /^\s*(\w+)/.exec(text)?.[1];
  return word ? word.toUpperCase() : 'SQL';
}
