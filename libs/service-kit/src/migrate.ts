import { Type, type TObject } from 'typebox';
import { openDatabase } from '@storefront/persistence';
import { BaseConfigSchema, loadConfig } from './config';
import type { ServiceDefinition } from './service-definition';

/**
 * Applies a service's pending migrations and returns their names: the
 * separate command (`node main.js migrate`, a Kubernetes init container)
 * beside the run-at-boot default.
 */
export async function migrateService<S extends TObject>(
  definition: ServiceDefinition<S>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const schema = Type.Object({ ...BaseConfigSchema.properties, ...definition.config.properties });
  const config = loadConfig(schema, env) as { DATABASE_URL: string; DATABASE_CREATE: boolean };
  const db = await openDatabase({
    url: config.DATABASE_URL,
    schema: definition.name,
    entities: definition.entities,
    migrations: definition.migrations,
    poolSize: 1,
    createDatabase: config.DATABASE_CREATE,
  });
  try {
    return await db.migrate();
  } finally {
    await db.close();
  }
}
