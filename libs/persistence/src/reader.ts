import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements prepared per process, at most (each connection keeps its own copies). */
const MAX_PREPARED = 256;
/** Distinct statement shapes (SQL and list lengths) whose numbered text is remembered. */
const MAX_SHAPES = 1024;

/**
 * A small pool for hot paths, outside MikroORM: reads, and writes that are one
 * autocommit statement (with their outbox rows, see `outboxInsert`). Rows
 * come back as plain objects, and statements are prepared once per
 * connection (named after a hash of their text), so Postgres skips planning
 * on repeats. Takes the same `?` placeholders as `em.execute` (arrays expand
 * to lists). Work that needs a transaction stays on the EntityManager.
 */
export class Reader {
  private readonly pool: pg.Pool;
  private readonly prepared = new Set<string>();
  private readonly shapes = new Map<string, { text: string; name: string | undefined }>();

  constructor(
    url: string,
    size: number,
    private readonly prepare: boolean,
    onError: (err: Error) => void = () => undefined,
    onClient?: (client: pg.PoolClient) => void,
    genericPlans = false,
  ) {
    this.pool = new pg.Pool({
      connectionString: url,
      max: size,
      // Postgres re-plans a prepared statement per call while its custom plans look cheaper than
      // the generic one; a service whose hot reads plan alike for every parameter opts out of that.
      ...(genericPlans && prepare ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
      // A dead server fails a read within seconds instead of queueing it forever.
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
    });
    // A connection dropped by the server (restart, failover, pg_terminate_backend,
    // idle reaper) is reported as an 'error' event: on the pool while the client
    // is idle, on the client while it is checked out. Without listeners that is an
    // uncaught exception that ends the process. The pool discards the broken
    // client; the next query opens a new connection.
    this.pool.on('error', onError);
    this.pool.on('connect', (client) => {
      client.on('error', onError);
      onClient?.(client);
    });
  }

  async query<T = Record<string, unknown>>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const { text, name } = this.statement(sql, params);
    const values = flatValues(params);
    const result = await this.pool.query(name ? { name, text, values } : { text, values });
    return result.rows as T[];
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /**
   * The numbered text and statement name of `sql` for these parameters,
   * remembered per shape (the SQL, the number of parameters and the length of
   * each list): hot reads repeat the same few shapes, so the placeholders are
   * rewritten and the text hashed once per shape, not on every call.
   */
  private statement(sql: string, params: readonly unknown[]): { text: string; name: string | undefined } {
    let key = `${params.length}\u0000${sql}`;
    for (let i = 0; i < params.length; i++) {
      const param = params[i];
      if (Array.isArray(param)) key += `\u0000${i}:${param.length}`;
    }
    const known = this.shapes.get(key);
    if (known) return known;
    const { text } = toNumberedPlaceholders(sql, params);
    const statement = { text, name: this.statementName(text) };
    if (this.shapes.size < MAX_SHAPES) this.shapes.set(key, statement);
    return statement;
  }

  private statementName(text: string): string | undefined {
    if (!this.prepare) return undefined;
    const name = `r_${createHash('sha1').update(text).digest('hex')}`;
    if (this.prepared.has(name)) return name;
    if (this.prepared.size >= MAX_PREPARED) return undefined;
    this.prepared.add(name);
    return name;
  }
}

/** `a = ? and b in (?)` with `[1, [2, 3]]` -> `a = $1 and b in ($2, $3)` with `[1, 2, 3]`. */
export function toNumberedPlaceholders(sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  let index = 0;
  const text = sql.replace(/\?/g, () => {
    if (index >= params.length) throw new Error('More placeholders than parameters');
    const param = params[index++];
    if (Array.isArray(param)) {
      if (!param.length) return 'null';
      return param.map((v) => `$${values.push(v)}`).join(', ');
    }
    return `$${values.push(param)}`;
  });
  if (index !== params.length) throw new Error('More parameters than placeholders');
  return { text, values };
}

/** The parameters as `toNumberedPlaceholders` numbers them: lists expanded in place. */
function flatValues(params: readonly unknown[]): unknown[] {
  const values: unknown[] = [];
  for (const param of params) {
    if (Array.isArray(param)) for (const v of param) values.push(v);
    else values.push(param);
  }
  return values;
}
