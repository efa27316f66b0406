import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/core';
import type { EventType } from './event-type';
import { envelopeHeaders } from './envelope';
import { currentTraceparent } from '@storefront/telemetry';

/** The outbox entity's name (OutboxMessage in @storefront/persistence, registered by openDatabase). */
const OUTBOX_ENTITY = 'OutboxMessage';
const outboxEntities = new WeakMap<object, EntityName<any>>();

/** The outbox entity as registered with this EntityManager's ORM, found by name. */
function outboxEntity(em: EntityManager): EntityName<any> {
  const metadata = em.getMetadata();
  let entity = outboxEntities.get(metadata);
  if (!entity) {
    const meta = [...metadata].find((m) => m.className === OUTBOX_ENTITY);
    if (!meta) throw new Error(`${OUTBOX_ENTITY} is not registered (open the database with @storefront/persistence)`);
    entity = meta.class;
    outboxEntities.set(metadata, entity);
  }
  return entity;
}

/** One event as its outbox row: the encoded payload and the envelope headers. */
export interface OutboxRow {
  id: string;
  subject: string;
  type: string;
  payload: Buffer;
  headers: Record<string, string>;
  occurredAt: Date;
}

/** The outbox row of `payload` (a new event id, now, the current trace). */
export function outboxRow<T>(event: EventType<T>, payload: T): OutboxRow {
  const id = randomUUID();
  const occurredAt = new Date();
  return {
    id,
    subject: event.subject,
    type: event.type,
    payload: Buffer.from(event.codec.encode(payload).finish()),
    headers: envelopeHeaders({ id, type: event.type, occurredAt, traceparent: currentTraceparent() }),
    occurredAt,
  };
}

/**
 * Records an event in the outbox through the caller's EntityManager, so it is
 * committed (or rolled back) together with the change that caused it. The
 * relay publishes it after the commit.
 */
export function recordEvent<T>(em: EntityManager, event: EventType<T>, payload: T): string {
  const row = outboxRow(event, payload);
  // By entity name: this library must not load the ORM (or pg) at run time, so
  // processes without a database (the gateway) can import it.
  em.create(outboxEntity(em), { ...row, attempts: 0 });
  return row.id;
}

/**
 * Where a change's events go, so one piece of code can describe the events of
 * a change however it is written: the outbox through a transaction's
 * EntityManager (`intoOutbox`), or rows for a change written in one statement
 * (`intoRows`, then `outboxInsert`).
 */
export type EventSink = <T>(event: EventType<T>, payload: T) => void;
export const intoOutbox = (em: EntityManager): EventSink => (event, payload) => void recordEvent(em, event, payload);
export const intoRows = (rows: OutboxRow[]): EventSink => (event, payload) => void rows.push(outboxRow(event, payload));

/**
 * The CTE `<name> as (insert into "<schema>"."outbox" ...)` writing `count`
 * rows in the one statement that makes the change they announce, and only
 * when the CTE `guard` of that statement returned a row (the change
 * happened). One autocommit statement commits both, without a transaction's
 * four round trips; the caller then wakes the relay (`Database.outboxWritten`).
 * Its parameters: `outboxParams(rows)`.
 */
export function outboxInsert(schema: string, name: string, count: number, guard: string): string {
  const values = Array.from({ length: count }, () => '(?::uuid, ?, ?, ?::bytea, ?::jsonb, ?::timestamptz)').join(', ');
  return `${name} as (
       insert into "${schema}"."outbox" (id, subject, type, payload, headers, occurred_at, attempts)
       select v.*, 0 from (values ${values}) as v where exists (select 1 from ${guard})
     )`;
}

export const outboxParams = (rows: readonly OutboxRow[]): unknown[] =>
  rows.flatMap((r) => [r.id, r.subject, r.type, r.payload, JSON.stringify(r.headers), r.occurredAt]);
