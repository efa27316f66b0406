export interface TransportMessage {
  subject: string;
  data: Uint8Array;
  headers: Record<string, string>;
  /** How many times this message has been delivered to this durable consumer (1 = first), when known. */
  deliveryCount?: number;
}

export type StopConsuming = () => Promise<void>;

/**
 * What carries events between services: NATS JetStream in tests and
 * production, an in-process bus for the single-process development launcher.
 */
export interface DurableOptions {
  /**
   * Where a durable consumer that does not exist yet starts: `all` (default)
   * replays what the stream retains; `new` starts with what is published from
   * now on (a consumer added to a running system, whose past events other
   * consumers already acted on). An existing durable keeps its position.
   */
  startAt?: 'all' | 'new';
}

export interface EventTransport {
  readonly kind: 'jetstream' | 'in-process';
  /** Full subject for a prefix-less subject (`customers.customer_created.v1`). */
  subjectFor(subject: string): string;
  /** Resolves once the broker has stored the message; duplicates (same Nats-Msg-Id) are dropped. */
  publish(message: TransportMessage): Promise<void>;
  /**
   * Durable, at-least-once delivery to one named consumer group; a handler
   * that throws gets the message again later.
   */
  consume(
    durable: string,
    subject: string,
    handler: (message: TransportMessage) => Promise<void>,
    options?: DurableOptions,
  ): Promise<StopConsuming>;
  /** Messages the broker holds for a durable consumer, delivered or not, not yet acknowledged (its lag). */
  pendingFor(durable: string): Promise<number>;
  /** Every subscriber gets every message, best effort (cache invalidation). */
  subscribe(subject: string, handler: (message: TransportMessage) => void): () => void;
  isConnected(): boolean;
  /** Calls `listener` each time the broker connection is back after a loss (the relay drains at once). */
  onReconnect?(listener: () => void): () => void;
  close(): Promise<void>;
}

/** NATS subject matching: `*` matches one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}
