// `npm start`: the whole platform in one process, with nothing else installed.
// - DATABASE_URL unset: embedded Postgres (PGlite, data in .data/pglite), one schema per service.
//   Set: that server, one database per service (storefront_<service>), created when missing.
// - NATS_URL unset: an in-process event bus. Set: NATS JetStream.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { InProcessTransport } from '@storefront/events';
import { withDatabaseName } from '@storefront/persistence';
import { startEmbeddedPostgres, startPlatform, type EmbeddedPostgres } from '@storefront/platform';

const DATA_DIR = process.env.STOREFRONT_DATA_DIR ?? '.data';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The development admin password: SHOP_ADMIN_PASSWORD, or one generated once and kept in .data/. */
function adminPassword(): string {
  if (process.env.SHOP_ADMIN_PASSWORD) return process.env.SHOP_ADMIN_PASSWORD;
  const file = join(DATA_DIR, 'admin-password');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const password = randomBytes(12).toString('base64url');
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

async function main(): Promise<void> {
  if (process.env.NODE_ENV === 'production') throw new Error('npm start is the development launcher; deploy/ runs production');
  const level = process.env.LOG_LEVEL ?? 'warn';
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl: (service: string) => string;
  if (process.env.DATABASE_URL) {
    const server = process.env.DATABASE_URL;
    databaseUrl = (service) => withDatabaseName(server, `storefront_${service}`);
  } else {
    embedded = await startEmbeddedPostgres(process.env.PGLITE_DATA_DIR ?? join(DATA_DIR, 'pglite'), await freePort());
    databaseUrl = () => embedded!.url;
  }
  const password = adminPassword();
  const login = process.env.SHOP_ADMIN_USER ?? 'admin';
  const port = Number(process.env.PORT ?? 8080);
  const platform = await startPlatform({
    databaseUrl,
    env: {
      SEED_DEMO_DATA: 'true',
      // The repository's files/ holds the demo catalog's downloads.
      FILES_DIR: join(import.meta.dirname, '..', '..', 'files'),
      // Links in responses point at this server until an admin sets site_url.
      SHOP_SITE_URL: `http://localhost:${port}`,
      DATABASE_CREATE: 'true',
      ...(embedded ? { DB_POOL_SIZE: '3', DB_PREPARED_STATEMENTS: 'false' } : {}),
      ...process.env,
      NODE_ENV: process.env.NODE_ENV ?? 'development',
      SHOP_ADMIN_PASSWORD: password,
      LOG_LEVEL: level,
    },
    transport: process.env.NATS_URL ? undefined : new InProcessTransport(),
    port,
    host: process.env.HOST ?? '127.0.0.1',
    logger: (name) => pino({ name, level }),
  });
  const url = platform.url.replace('127.0.0.1', 'localhost');
  process.stdout.write(
    [
      '',
      `Storefront is running at ${url}/shop/v1`,
      `  API docs:    ${url}/docs`,
      `  Readiness:   ${url}/readyz`,
      `  Admin login: ${login} / ${password}`,
      `  Database:    ${embedded ? `embedded PGlite (${process.env.PGLITE_DATA_DIR ?? join(DATA_DIR, 'pglite')})` : 'DATABASE_URL'}`,
      `  Events:      ${process.env.NATS_URL ? 'NATS JetStream' : 'in-process'}`,
      '',
      `Try: curl -u ${login}:<application password> ${url}/shop/v1/settings  (create one at POST /platform/v1/users/me/application-passwords)`,
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await platform.stop();
    await embedded?.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`Storefront failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  process.exit(1);
});
