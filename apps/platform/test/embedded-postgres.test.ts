import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src';

// The embedded Postgres of `npm start` (PGlite behind a socket): many pooled
// connections share PGlite's one session, so each extended-protocol batch must
// run whole, a transaction must keep the session to itself, and a connection
// lost mid-transaction must not wedge the others.
let embedded: EmbeddedPostgres;
let pool: pg.Pool;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  embedded = await startEmbeddedPostgres(undefined, await freePort());
  pool = new pg.Pool({ connectionString: embedded.url, max: 8 });
  await pool.query('create table t (id int primary key, note text)');
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await embedded?.stop();
});

describe('embedded Postgres (npm start)', () => {
  it('serves several pools at once (statements of different shapes, short transactions) with each caller its own rows', async () => {
    // Four services' pools, 24 callers: the stock PGlite socket server mixed their messages and stalled here.
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: embedded.url, max: 6 }));
    await pool.query('create table counts (id serial primary key, v int)');
    const wrong: unknown[] = [];
    try {
      await Promise.all(
        Array.from({ length: 24 }, async (_, caller) => {
          const own = pools[caller % 4];
          for (let i = 0; i < 25; i++) {
            const n = caller * 1000 + i;
            if (i % 5 === 0) {
              const tx = await own.connect();
              try {
                await tx.query('begin');
                await tx.query('insert into counts (v) values ($1)', [n]);
                const seen = await tx.query<{ count: string }>('select count(*) from counts where v = $1', [n]);
                await tx.query('commit');
                if (seen.rows[0].count !== '1') wrong.push({ n, seen: seen.rows });
              } finally {
                tx.release();
              }
              continue;
            }
            const res =
              i % 2
                ? await own.query<{ n: number; s: string }>('select $1::int as n, $2::text as s', [n, 'x'.repeat(i)])
                : await own.query<{ n: number }>('select $1::int as n', [n]);
            if (res.rows[0]?.n !== n || (i % 2 && (res.rows[0] as unknown as { s: string }).s !== 'x'.repeat(i))) wrong.push({ n, rows: res.rows });
          }
        }),
      );
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
    expect(wrong).toEqual([]);
    expect((await pool.query<{ count: string }>('select count(*) from counts')).rows[0].count).toBe(String(24 * 5));
  }, 60_000);

  it('keeps a transaction to its connection: others wait for its commit and see all of it', async () => {
    const tx = await pool.connect();
    await tx.query('begin');
    await tx.query('insert into t values ($1, $2)', [1, 'first']);
    const reader = pool.query<{ count: string }>('select count(*) from t');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await tx.query('insert into t values ($1, $2)', [2, 'second']);
    await tx.query('commit');
    tx.release();
    expect((await reader).rows[0].count).toBe('2');
  });

  it('rolls back the transaction of a connection that went away, and serves the others', async () => {
    const lost = new pg.Client({ connectionString: embedded.url });
    lost.on('error', () => undefined); // its own loss, made on purpose below
    await lost.connect();
    await lost.query('begin');
    await lost.query('insert into t values ($1, $2)', [3, 'lost']);
    const waiting = pool.query<{ ids: number[] }>('select array_agg(id order by id) as ids from t');
    (lost as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    expect((await waiting).rows[0].ids).toEqual([1, 2]);
    // A failed statement in one batch leaves the session usable.
    await expect(pool.query('select * from no_such_table')).rejects.toThrow(/no_such_table/);
    expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });
});
