export { defineEvent, type EventType, type EventCodec } from './event-type';
export { type EventEnvelope, envelopeHeaders, envelopeFromHeaders } from './envelope';
export { type DurableOptions, type EventTransport, type TransportMessage, type StopConsuming, subjectMatches } from './transport';
export { connectJetStream, type JetStreamOptions } from './jetstream-transport';
export { InProcessTransport } from './in-process-transport';
export { recordEvent, outboxRow, outboxInsert, outboxParams, intoOutbox, intoRows, type OutboxRow, type EventSink } from './outbox';
export { OutboxRelay, replayParkedOutbox, type OutboxRelayOptions, type OutboxStats, type PublishedEvent } from './outbox-relay';
export { consumeEvent, idempotentConsumer, replayParkedEvents, parkedEventCounts, durableName, DEFAULT_MAX_DELIVER, type EventHandler, type EventShortcut, type ConsumeOptions, type InboxKey, inboxInsert, inboxParams, inboxHoldsQuery } from './consumer';
export { runWithTraceparent, currentTraceparent, newTraceparent } from '@storefront/telemetry';
