import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Postgres compiled to WebAssembly (PGlite) behind a local socket, for a
 * `npm start` with nothing installed. One instance holds every service (a
 * schema each). It executes one query at a time, so services keep their pools
 * small and never wait on another service inside a transaction.
 */
export async function startEmbeddedPostgres(dataDir: string | undefined, port: number): Promise<EmbeddedPostgres> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir ? { dataDir } : {});
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 64 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
