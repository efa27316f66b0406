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

/**
 * Records an event in the outbox through the caller's EntityManager, so it is
 * committed (or rolled back) together with the change that caused it. The
 * relay publishes it after the commit.
 */
export function recordEvent<T>(em: EntityManager, event: EventType<T>, payload: T): string {
  const id = randomUUID();
  const occurredAt = new Date();
  // By entity name: this library must not load the ORM (or pg) at run time, so
  // processes without a database (the gateway) can import it.
  em.create(outboxEntity(em), {
    id,
    subject: event.subject,
    type: event.type,
    payload: Buffer.from(event.codec.encode(payload).finish()),
    headers: envelopeHeaders({ id, type: event.type, occurredAt, traceparent: currentTraceparent() }),
    occurredAt,
    attempts: 0,
  });
  return id;
}
