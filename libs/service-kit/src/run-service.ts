import type { TObject } from 'typebox';
import { ConfigError } from './config';
import { migrateService } from './migrate';
import { startService } from './start-service';
import type { ServiceDefinition } from './service-definition';

/**
 * A service process's whole main: `main.js` serves (stopping gracefully on
 * SIGTERM/SIGINT); `main.js migrate` applies migrations and exits. A bad
 * configuration exits with the list of bad variables.
 */
export function runService<S extends TObject>(definition: ServiceDefinition<S>): void {
  if (process.argv[2] === 'migrate') {
    migrateService(definition).then(
      (applied) => {
        process.stdout.write(`${definition.name}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}\n`);
        process.exit(0);
      },
      (err: unknown) => fail(definition.name, 'migration failed', err),
    );
    return;
  }
  startService(definition).then(
    (service) => {
      const stop = (signal: string) => {
        process.stderr.write(`${signal} received: shutting down ${definition.name}\n`);
        service.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    },
    (err: unknown) => fail(definition.name, 'failed to start', err),
  );
}

function fail(name: string, what: string, err: unknown): never {
  const message = err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err));
  process.stderr.write(`${name} ${what}: ${message}\n`);
  process.exit(1);
}
