import type { TObject } from 'typebox';
import { ConfigError } from './config';
import { startService } from './start-service';
import type { ServiceDefinition } from './service-definition';

/**
 * A service process's whole main: start, and stop gracefully on SIGTERM/SIGINT.
 * A bad configuration exits with the list of bad variables.
 */
export function runService<S extends TObject>(definition: ServiceDefinition<S>): void {
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
    (err: unknown) => {
      const message = err instanceof ConfigError ? err.message : (err as Error)?.stack ?? String(err);
      process.stderr.write(`${definition.name} failed to start: ${message}\n`);
      process.exit(1);
    },
  );
}
