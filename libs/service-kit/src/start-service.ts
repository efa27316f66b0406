import { Server, ServerCredentials, type ServiceDefinition as GrpcServiceDefinition } from '@grpc/grpc-js';
import { Type, type TObject } from 'typebox';
import { openDatabase, type Database } from '@storefront/persistence';
import { consumeEvent, durableName, OutboxRelay, parkedEventCounts, type StopConsuming } from '@storefront/events';
import { openChannel, type Channel } from '@storefront/grpc-client';
import { traceQueries } from '@storefront/telemetry';
import { BaseConfigSchema, type BaseConfig } from './config';
import { startRuntime, type RuntimeOptions } from './runtime';
import { HealthReporter } from './health';
import { intervalJob, type IntervalJob } from './interval-job';
import { runBounded } from './bounded';
import { adaptHandlers, serviceNameOf } from './grpc-handlers';
import type { ServiceContext, ServiceDefinition } from './service-definition';

export type StartOptions = RuntimeOptions;

export interface RunningService {
  name: string;
  /** host:port the gRPC server listens on. */
  address: string;
  grpcPort: number;
  metricsPort: number;
  health: HealthReporter;
  config: BaseConfig;
  db: Database;
  stop(): Promise<void>;
}

/**
 * Boots a service on the shared runtime (config + production guards, logger,
 * metrics, events; see runtime.ts) -> database (+migrations) -> setup -> gRPC
 * server with health -> outbox relay and consumers. Stopping runs the
 * reverse: NOT_SERVING, stop consumers, drain gRPC, stop the relay, close the
 * database, drain the transport.
 */
export async function startService<S extends TObject>(
  definition: ServiceDefinition<S>,
  options: StartOptions = {},
): Promise<RunningService> {
  const runtime = await startRuntime(
    {
      name: definition.name,
      config: Type.Object({ ...BaseConfigSchema.properties, ...definition.config.properties }),
      requiredInProduction: () => definition.requiredInProduction ?? [],
    },
    options,
  );
  const config = runtime.config as BaseConfig & Record<string, unknown>;
  const { logger, metrics, transport, tracing } = runtime;
  const cleanups: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await runBounded(cleanup, config.SHUTDOWN_TIMEOUT_MS, logger);
    await runtime.close();
  };

  try {
    const db = await openDatabase({
      url: config.DATABASE_URL,
      schema: definition.name,
      entities: definition.entities,
      migrations: definition.migrations,
      poolSize: config.DB_POOL_SIZE,
      createDatabase: config.DATABASE_CREATE,
      preparedStatements: config.DB_PREPARED_STATEMENTS,
      readerGenericPlans: definition.readerGenericPlans,
      onClient: tracing ? traceQueries(tracing, definition.name) : undefined,
      onConnectionError: (err) =>
        logger.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost; reconnecting on next use'),
    });
    cleanups.push(() => db.close());
    if (config.MIGRATE_ON_BOOT) {
      const applied = await db.migrate();
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }

    const server = new Server({
      // Clients spread calls over the addresses a headless Service resolves to when they connect; closing each
      // connection after a while (in-flight calls get the grace period) makes them resolve again, so replicas
      // added by a scale-up receive calls too.
      'grpc.max_connection_age_ms': config.GRPC_MAX_CONNECTION_AGE_MS,
      'grpc.max_connection_age_grace_ms': 30_000,
    });
    const health = new HealthReporter(
      [
        { name: 'database', critical: true, check: () => db.ping().then(() => true) },
        { name: 'events', critical: false, check: async () => transport.isConnected() },
      ],
      logger,
    );
    health.addTo(server);

    const consumers: Array<() => Promise<StopConsuming>> = [];
    const consumerNames: string[] = [];
    const readyTasks: Array<() => Promise<void>> = [];
    const channels: Channel[] = [];
    const jobs: IntervalJob[] = [];
    const ctx: ServiceContext<Record<string, unknown>> = {
      name: definition.name,
      config,
      logger,
      db,
      transport,
      metrics,
      addGrpcService(def: GrpcServiceDefinition, handlers) {
        server.addService(def, adaptHandlers(def, handlers, logger, metrics.grpcLatency, tracing));
        health.register(serviceNameOf(def));
      },
      consume(consumer, event, handler, options) {
        consumerNames.push(consumer);
        consumers.push(() =>
          consumeEvent({
            orm: db.orm,
            schema: definition.name,
            transport,
            logger,
            consumer,
            event,
            handler,
            maxDeliver: config.EVENTS_MAX_DELIVER,
            tracing,
            shortcut: options?.shortcut,
            startAt: options?.startAt,
          }),
        );
      },
      connect(serviceName, address) {
        const channel = openChannel(serviceName, address, config.SERVICE_GRPC_DEADLINE_MS, tracing);
        channels.push(channel);
        return channel;
      },
      onReady: (task) => void readyTasks.push(task),
      onShutdown: (task) => void cleanups.push(task),
      every(name, intervalSeconds, task, options) {
        const job = intervalJob(name, task, intervalSeconds, logger);
        jobs.push(job);
        readyTasks.push(async () => job.start(options?.atStart));
        cleanups.push(() => job.stop()); // a start that fails later
      },
    };
    await definition.setup(ctx as ServiceContext<never>);
    cleanups.push(async () => channels.forEach((c) => c.close()));

    for (const task of readyTasks) await task();
    const relay = new OutboxRelay(db.orm, definition.name, transport, logger, {
      maxAttempts: config.OUTBOX_MAX_ATTEMPTS,
      tracing,
      onPublished: (event) => metrics.eventPublished(event),
      wakeOn: db.onOutboxWritten,
    });
    relay.start();
    metrics.observeDependencies(() => health.details, () => relay.stats());
    cleanups.push(() => relay.stop());
    if (consumerNames.length) {
      metrics.observeConsumers(
        async () => {
          const lags = await Promise.all(consumerNames.map((c) => transport.pendingFor(durableName(c)).catch(() => undefined)));
          return Object.fromEntries(consumerNames.flatMap((c, i) => (lags[i] === undefined ? [] : [[c, lags[i]]])));
        },
        async () => ({ ...Object.fromEntries(consumerNames.map((c) => [c, 0])), ...(await parkedEventCounts(db.orm, definition.name)) }),
      );
    }
    const stops = await Promise.all(consumers.map((start) => start()));

    const grpcPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${config.GRPC_HOST}:${config.GRPC_PORT}`, ServerCredentials.createInsecure(), (err, port) =>
        err ? reject(err) : resolve(port),
      ),
    );
    cleanups.push(() => shutdownGrpc(server, config.SHUTDOWN_TIMEOUT_MS));
    // Registered last so it runs first: stop taking events before draining calls.
    cleanups.push(async () => void (await Promise.all(stops.map((stop) => stop()))));
    // Before that: background jobs finish their run while the database and peers are still there.
    cleanups.push(async () => void (await Promise.all(jobs.map((job) => job.stop()))));
    const metricsPort = await runtime.serveMetrics();
    await health.start();
    logger.info({ grpcPort, metricsPort, events: transport.kind }, `${definition.name} service started`);

    let stopping: Promise<void> | undefined;
    return {
      name: definition.name,
      address: `127.0.0.1:${grpcPort}`,
      grpcPort,
      metricsPort,
      health,
      config,
      db,
      stop() {
        stopping ??= (async () => {
          health.drain();
          await closeAll();
          logger.info(`${definition.name} service stopped`);
        })();
        return stopping;
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

function shutdownGrpc(server: Server, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, timeoutMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
