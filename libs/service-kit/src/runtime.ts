import { Type, type Static, type TObject } from 'typebox';
import type { Logger } from 'pino';
import { connectJetStream, InProcessTransport, type EventTransport } from '@storefront/events';
import { ConfigError, loadConfig, RuntimeConfigSchema, type RuntimeConfig } from './config';
import { createLogger } from './logger';
import { createMetrics, type Metrics } from './metrics';
import { runBounded } from './bounded';
import { startTracing, type Tracing } from '@storefront/telemetry';

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  /** Shared in-process transport (development launcher); otherwise NATS_URL decides. */
  transport?: EventTransport;
  logger?: Logger;
}

export interface RuntimeSpec<S extends TObject> {
  /** App name: logger name, metrics label, NATS connection name. */
  name: string;
  /** The app's own variables; the runtime ones (RuntimeConfigSchema) are added, never redeclared. */
  config: S;
  /** Variables that must be set when NODE_ENV=production (NATS_URL always is). */
  requiredInProduction?: (config: RuntimeConfig & Static<S>) => string[];
}

/** What every app shares: validated config, logger, metrics, event transport and ordered shutdown. */
export interface AppRuntime<C> {
  name: string;
  config: RuntimeConfig & C;
  logger: Logger;
  metrics: Metrics;
  transport: EventTransport;
  /** Spans of this app, exported over OTLP; undefined when OTEL_EXPORTER_OTLP_ENDPOINT is unset (no hook installed). */
  tracing?: Tracing;
  /** Registers a shutdown step; steps run in reverse order of registration. */
  onShutdown(task: () => Promise<void>): void;
  /** Serves `/metrics` on METRICS_PORT (-1: off); resolves to the bound port or -1. */
  serveMetrics(): Promise<number>;
  /** Runs every shutdown step once (later calls return the same promise). */
  close(): Promise<void>;
}

/**
 * Production guards shared by every app: a production process never runs on
 * the in-process bus (it would silently miss every event of the others) and
 * never starts without the variables its app declares required.
 */
export function productionProblems(config: RuntimeConfig, required: string[], hasTransport: boolean): string[] {
  if (config.NODE_ENV !== 'production') return [];
  const values = config as unknown as Record<string, unknown>;
  const names = [...(hasTransport ? [] : ['NATS_URL']), ...required];
  return [...new Set(names)]
    .filter((name) => values[name] === undefined || values[name] === '')
    .map((name) => `${name} is required when NODE_ENV=production`);
}

/**
 * The bootstrap every app starts with (services through `startService`, the
 * gateway directly): config validated against the runtime schema plus the
 * app's own, production guards, logger, metrics and the event transport.
 * A bad configuration throws one ConfigError naming every bad variable.
 */
export async function startRuntime<S extends TObject>(
  spec: RuntimeSpec<S>,
  options: RuntimeOptions = {},
): Promise<AppRuntime<Static<S>>> {
  const schema = Type.Object({ ...RuntimeConfigSchema.properties, ...spec.config.properties });
  const config = loadConfig(schema, options.env ?? process.env) as RuntimeConfig & Static<S>;
  const problems = productionProblems(config, spec.requiredInProduction?.(config) ?? [], Boolean(options.transport));
  if (problems.length) throw new ConfigError(problems);

  const logger = options.logger ?? createLogger(spec.name, config.LOG_LEVEL);
  const metrics = createMetrics(spec.name);
  const tracing = await startTracing(spec.name, config);
  // Tracing closes last: the spans of the shutdown itself are exported too.
  const cleanups: Array<() => Promise<void>> = [...(tracing ? [() => tracing.close()] : []), () => metrics.close()];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      for (const cleanup of cleanups.reverse()) await runBounded(cleanup, config.SHUTDOWN_TIMEOUT_MS, logger);
    })());

  const transport = options.transport ?? (await connectTransport(spec.name, config, logger));
  if (!options.transport) cleanups.push(() => transport.close());
  return {
    name: spec.name,
    config,
    logger,
    metrics,
    transport,
    tracing,
    onShutdown: (task) => void cleanups.push(task),
    serveMetrics: () => (config.METRICS_PORT >= 0 ? metrics.serve(config.METRICS_PORT) : Promise.resolve(-1)),
    close,
  };
}

function connectTransport(name: string, config: RuntimeConfig, logger: Logger): Promise<EventTransport> | EventTransport {
  if (!config.NATS_URL) return new InProcessTransport(config.EVENTS_SUBJECT_PREFIX);
  return connectJetStream({
    url: config.NATS_URL,
    stream: config.EVENTS_STREAM,
    subjectPrefix: config.EVENTS_SUBJECT_PREFIX,
    name,
    logger,
  });
}

/**
 * A process's whole main for any app: start, stop gracefully on SIGTERM/SIGINT,
 * and on a bad configuration print the list of bad variables (no stack) and exit 1.
 */
export function runMain(name: string, start: () => Promise<{ stop(): Promise<void> }>): void {
  // A promise nobody awaited that rejects (a dependency's error on a path that lost its caller) is a
  // bug to log, not a reason to stop serving every other request: Node's default would exit.
  process.on('unhandledRejection', (reason) => {
    const err = reason instanceof Error ? { type: reason.name, message: reason.message, stack: reason.stack } : { message: String(reason) };
    process.stderr.write(`${JSON.stringify({ level: 50, time: Date.now(), name, err, msg: 'unhandled promise rejection; still serving' })}\n`);
  });
  // An exception thrown past every handler may have left state half-changed: log it, then exit (the
  // orchestrator restarts the process).
  process.on('uncaughtException', (err) => exitWith(name, 'crashed on an uncaught exception', err));
  start().then(
    (app) => {
      const stop = (signal: string) => {
        process.stderr.write(`${signal} received: shutting down ${name}\n`);
        app.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGTERM', () => stop('SIGTERM'));
      process.once('SIGINT', () => stop('SIGINT'));
    },
    (err: unknown) => exitWith(name, 'failed to start', err),
  );
}

/** Prints why a process cannot run (a ConfigError as its list, anything else with its stack) and exits 1. */
export function exitWith(name: string, what: string, err: unknown): never {
  const message = err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err));
  process.stderr.write(`${name} ${what}: ${message}\n`);
  process.exit(1);
}
