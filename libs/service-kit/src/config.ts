import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { Type, type Static, type TObject } from 'typebox';

/**
 * Environment every app reads, the gateway included: environment, logging,
 * metrics, event transport, shutdown. An app adds its own variables beside these.
 */
export const RuntimeConfigSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
    default: 'development',
  }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  /** Prometheus metrics over HTTP; -1 turns the endpoint off. */
  METRICS_PORT: Type.Integer({ minimum: -1, maximum: 65535, default: 9464 }),
  /** NATS with JetStream; required in production. When unset (development only) events stay in-process. */
  NATS_URL: Type.Optional(Type.String({ pattern: '^(nats|tls)://' })),
  EVENTS_STREAM: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'SHOP' }),
  EVENTS_SUBJECT_PREFIX: Type.String({ pattern: '^[A-Za-z0-9_-]+$', default: 'shop' }),
  SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 0, default: 10_000 }),
  /** OTLP/HTTP collector base URL (`http://otel-collector:4318`); traces are exported when set, off otherwise. */
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** `key=value,...` headers sent with every trace export (collector credentials). */
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(Type.String()),
  /** Share of new traces recorded, 0..1 (default 1); calls inside a recorded trace always are. */
  OTEL_TRACES_SAMPLER_ARG: Type.Optional(Type.String({ pattern: '^(0(\\.\\d+)?|1(\\.0+)?)$' })),
});
export type RuntimeConfig = Static<typeof RuntimeConfigSchema>;

/** Environment every gRPC service reads: the runtime plus its gRPC server and database. */
export const BaseConfigSchema = Type.Object({
  ...RuntimeConfigSchema.properties,
  GRPC_HOST: Type.String({ default: '0.0.0.0' }),
  GRPC_PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 50051 }),
  /** A client connection is closed after this long (30 s grace for calls in flight) so clients resolve the Service again. */
  GRPC_MAX_CONNECTION_AGE_MS: Type.Integer({ minimum: 1000, default: 300_000 }),
  DATABASE_URL: Type.String({ pattern: '^postgres(ql)?://' }),
  /** Create the database on boot when it is missing (development and tests). */
  DATABASE_CREATE: Type.Boolean({ default: false }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  MIGRATE_ON_BOOT: Type.Boolean({ default: true }),
  /** Prepared statements on hot reads; the launcher turns them off on embedded PGlite (one shared backend). */
  DB_PREPARED_STATEMENTS: Type.Boolean({ default: true }),
  /** Deliveries of one event to a consumer before it is parked as poison (parked_event table). */
  EVENTS_MAX_DELIVER: Type.Integer({ minimum: 1, default: 10 }),
  /** Failed publishes of one outbox row before it is parked (outbox.parked_at). */
  OUTBOX_MAX_ATTEMPTS: Type.Integer({ minimum: 1, default: 12 }),
  /** Deadline of this service's calls to other services (`ctx.connect`). */
  SERVICE_GRPC_DEADLINE_MS: Type.Integer({ minimum: 50, default: 5000 }),
});
export type BaseConfig = Static<typeof BaseConfigSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const ajv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
addFormats(ajv);

/**
 * Reads and validates environment variables against a JSON Schema at boot:
 * defaults applied, numbers and booleans coerced, and every bad variable named
 * in one error.
 */
export function loadConfig<S extends TObject>(schema: S, env: NodeJS.ProcessEnv = process.env): Static<S> {
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') values[key] = value;
  }
  const validate = ajv.compile(schema);
  if (!validate(values)) {
    // Values are never echoed: a bad DATABASE_URL or secret would end up in logs.
    const problems = (validate.errors ?? []).map((e) => {
      const name = e.instancePath.replace(/^\//, '') || String(e.params.missingProperty ?? '');
      const shown = e.keyword === 'required' ? 'is required' : `is invalid: ${describeRule(e)}`;
      return `${name} ${shown}`;
    });
    throw new ConfigError(problems);
  }
  return values as Static<S>;
}

/** What the rule wants, without the value that broke it (Ajv's message for `pattern` quotes no value, but is cryptic). */
function describeRule(e: { keyword: string; message?: string; params: Record<string, unknown> }): string {
  if (e.keyword === 'pattern') return `must match ${String(e.params.pattern)}`;
  if (e.keyword === 'anyOf' || e.keyword === 'enum' || e.keyword === 'const') return 'is not one of the allowed values';
  return e.message ?? e.keyword;
}
