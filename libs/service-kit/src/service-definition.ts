import type { EntitySchema } from '@mikro-orm/core';
import type { ServiceDefinition as GrpcServiceDefinition } from '@grpc/grpc-js';
import type { Static, TObject } from 'typebox';
import type { CallerContext, Channel } from '@storefront/grpc-client';
import type { Database, SqlMigration } from '@storefront/persistence';
import type { ConsumeOptions, EventHandler, EventTransport, EventType } from '@storefront/events';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import type { Metrics } from './metrics';

type UnaryHandler<M> = M extends {
  requestDeserialize: (bytes: Buffer) => infer Req;
  responseSerialize: (value: infer Res) => Buffer;
}
  ? (request: Req, caller: CallerContext) => Promise<Res>
  : never;

/** Promise handlers for every RPC of a ts-proto service definition. */
export type ServiceHandlers<D> = { [K in keyof D]: UnaryHandler<D[K]> };

/** What a service's setup receives: its config, logger, database and event plumbing. */
export interface ServiceContext<C = object> {
  name: string;
  config: BaseConfig & C;
  logger: Logger;
  db: Database;
  transport: EventTransport;
  /** This service's Prometheus registry (`metrics.counter(...)` for business figures). */
  metrics: Metrics;
  addGrpcService<D extends GrpcServiceDefinition>(definition: D, handlers: ServiceHandlers<D>): void;
  /** Registers a durable, idempotent event consumer (started after migrations); `options.shortcut`: see EventShortcut. */
  consume<T>(consumer: string, event: EventType<T>, handler: EventHandler<T>, options?: ConsumeOptions<T>): void;
  /** A gRPC channel to another service, closed on shutdown. */
  connect(serviceName: string, address: string): Channel;
  /** Runs once after migrations and before the gRPC server accepts calls. */
  onReady(task: () => Promise<void>): void;
  onShutdown(task: () => Promise<void>): void;
  /**
   * A background job (sweeps, retries): `task` runs every `intervalSeconds`
   * (0 = off) once the service is ready, never overlapping itself, and stops
   * on shutdown. `atStart`: also once right away (recovery after downtime).
   */
  every(name: string, intervalSeconds: number, task: () => Promise<number>, options?: { atStart?: boolean }): void;
}

export interface ServiceDefinition<S extends TObject = TObject> {
  /** Service name: also its Postgres schema and its events' first subject token. */
  name: string;
  /** The service's own environment variables, validated at boot with the base ones. */
  config: S;
  /** Own variables that must be set when NODE_ENV=production (checked at boot with NATS_URL). */
  requiredInProduction?: string[];
  entities: EntitySchema<any, any>[];
  migrations: SqlMigration[];
  /**
   * Hot reads (`db.reader`) always run their prepared statement's generic plan:
   * for services whose hot statements plan alike whatever the parameters, so
   * Postgres stops re-planning them on every call.
   */
  readerGenericPlans?: boolean;
  setup(ctx: ServiceContext<Static<S>>): void | Promise<void>;
}

export function defineService<S extends TObject>(definition: ServiceDefinition<S>): ServiceDefinition<S> {
  return definition;
}
