import { runMain } from '@storefront/service-kit/process';
import { buildGateway } from './app';

/** Gateway process: listen; on SIGTERM stop taking requests, drain, close clients and the transport. */
runMain('gateway', async () => {
  const gateway = await buildGateway();
  await gateway.app.listen({ host: gateway.config.HOST, port: gateway.config.PORT });
  return { stop: () => gateway.close() };
});
