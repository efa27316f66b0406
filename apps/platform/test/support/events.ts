import { randomUUID } from 'node:crypto';
import { connectJetStream, envelopeHeaders, type EventTransport, type EventType } from '@storefront/events';
import { silentLogger } from '@storefront/testing';
import type { Platform } from '../../src';

/** A JetStream connection to the stack's own stream, for publishing real events from a test. */
export async function connectStackEvents(stack: Platform, name: string): Promise<EventTransport> {
  const env = stack.services[0].config;
  return connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    name,
    logger: silentLogger(),
  });
}

/**
 * Publishes one event as its producer's outbox relay would (same subject, headers and encoding).
 * With `id` (an event published before), it is delivered again under a fresh broker message id,
 * as a replay or a crash between publish and delete does: only the consumers' inboxes stop it.
 */
export async function publishEvent<T>(transport: EventTransport, event: EventType<T>, payload: T, id?: string): Promise<string> {
  const eventId = id ?? randomUUID();
  await transport.publish({
    subject: transport.subjectFor(event.subject),
    data: event.codec.encode(payload).finish(),
    headers: { ...envelopeHeaders({ id: eventId, type: event.type, occurredAt: new Date() }), 'Nats-Msg-Id': randomUUID() },
  });
  return eventId;
}
