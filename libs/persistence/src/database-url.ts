import pg from 'pg';

/** The database name in a postgres:// URL. */
export function databaseNameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/** The same server URL pointing at another database. */
export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}

/**
 * Creates the URL's database when it is missing (development and tests: one
 * server, a database per service). Production databases are provisioned, so a
 * missing CREATE privilege is not an error as long as the database exists.
 */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const name = databaseNameOf(url);
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`Unsupported database name "${name}"`);
  const admin = new pg.Client({ connectionString: withDatabaseName(url, 'postgres') });
  admin.on('error', () => undefined); // a drop while connected rejects the query below instead
  await admin.connect();
  try {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount) return;
    await admin.query(`create database "${name}"`).catch((err: { code?: string }) => {
      if (err.code !== '42P04') throw err; // created concurrently by a sibling
    });
  } finally {
    await admin.end();
  }
}
