/** Everything a consumer knows about an event besides its payload. Travels as message headers. */
export interface EventEnvelope<T = unknown> {
  id: string;
  type: string;
  occurredAt: Date;
  traceparent?: string;
  payload: T;
}

const H = {
  /** The broker's dedupe key: the event id, unless the event is republished (replay of a parked event). */
  msgId: 'Nats-Msg-Id',
  /** The event's own id, which consumers dedupe by; stays the same across republishing. */
  eventId: 'Shop-Event-Id',
  type: 'Shop-Event-Type',
  occurredAt: 'Shop-Occurred-At',
  traceparent: 'traceparent',
} as const;

export function envelopeHeaders(envelope: Omit<EventEnvelope, 'payload'>): Record<string, string> {
  const headers: Record<string, string> = {
    [H.msgId]: envelope.id,
    [H.eventId]: envelope.id,
    [H.type]: envelope.type,
    [H.occurredAt]: envelope.occurredAt.toISOString(),
  };
  if (envelope.traceparent) headers[H.traceparent] = envelope.traceparent;
  return headers;
}

export function envelopeFromHeaders<T>(headers: Record<string, string>, payload: T): EventEnvelope<T> {
  const id = headers[H.eventId] || headers[H.msgId];
  if (!id) throw new Error('Event without Shop-Event-Id or Nats-Msg-Id header');
  return {
    id,
    type: headers[H.type] ?? '',
    occurredAt: new Date(headers[H.occurredAt] ?? Date.now()),
    traceparent: headers[H.traceparent],
    payload,
  };
}
