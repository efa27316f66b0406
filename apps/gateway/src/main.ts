import { ConfigError } from '@storefront/service-kit/process';
import { buildGateway } from './app';

/** Gateway process: listen, and on SIGTERM stop taking requests, drain, close clients. */
async function main(): Promise<void> {
  const gateway = await buildGateway();
  await gateway.app.listen({ host: gateway.config.HOST, port: gateway.config.PORT });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      gateway.app.log.info(`${signal} received: shutting down`);
      gateway.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof ConfigError ? err.message : (err as Error)?.stack}\n`);
  process.exit(1);
});
