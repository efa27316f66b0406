import type { TObject } from 'typebox';
import { migrateService } from './migrate';
import { startService } from './start-service';
import { exitWith, runMain } from './runtime';
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
      (err: unknown) => exitWith(definition.name, 'migration failed', err),
    );
    return;
  }
  runMain(definition.name, () => startService(definition));
}
