// `npm run migrate -- <service|all>`: applies pending migrations with DATABASE_URL
// pointing at a Postgres server (each service gets its database storefront_<service>,
// created when missing), the same command the images run as `node main.js migrate`.
import { withDatabaseName } from '@storefront/persistence';
import { migrateService } from '@storefront/service-kit';
import { PLATFORM_SERVICES } from '@storefront/platform';

const target = process.argv[2] ?? 'all';
const server = process.env.DATABASE_URL;
if (!server) {
  console.error('Set DATABASE_URL to the Postgres server, e.g. postgres://postgres@127.0.0.1:5432/postgres');
  process.exit(2);
}
const chosen = PLATFORM_SERVICES.filter((s) => target === 'all' || s.definition.name === target);
if (!chosen.length) {
  console.error(`Unknown service "${target}"; one of: ${PLATFORM_SERVICES.map((s) => s.definition.name).join(', ')}, all`);
  process.exit(2);
}
for (const { definition } of chosen) {
  const url = withDatabaseName(server, `storefront_${definition.name}`);
  const applied = await migrateService(definition, { ...process.env, DATABASE_URL: url, DATABASE_CREATE: 'true' });
  console.log(`${definition.name}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
}
