import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { OutboxMessage } from '@storefront/persistence';
import type { EventType } from './event-type';
import { envelopeHeaders } from './envelope';
import { currentTraceparent } from './trace-context';

/**
 * Records an event in the outbox through the caller's EntityManager, so it is
 * committed (or rolled back) together with the change that caused it. The
 * relay publishes it after the commit.
 */
export function recordEvent<T>(em: EntityManager, event: EventType<T>, payload: T): string {
  const id = randomUUID();
  const occurredAt = new Date();
  em.create(OutboxMessage, {
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
