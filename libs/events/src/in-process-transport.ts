import type { DurableOptions, EventTransport, StopConsuming, TransportMessage } from './transport';
import { subjectMatches } from './transport';

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const RETAINED = 1_000;

interface Durable {
  subject: string;
  queue: TransportMessage[];
  handler: (message: TransportMessage) => Promise<void>;
  pumping: boolean;
  stopped: boolean;
  idle: Promise<void>;
}

/**
 * The development launcher's event bus, used only when no NATS_URL is given
 * (every service then runs in one process). Tests and production use
 * JetStream. What it shares with JetStream: dedupe by Nats-Msg-Id within a
 * window, durable consumers that replay retained history when they first
 * attach, retries of a failing handler with backoff and a delivery count (so
 * `consumeEvent` parks a poison event after its limit instead of blocking the
 * queue), broadcast subscriptions.
 *
 * Where it differs (written down in docs/operations.md, "Embedded mode"):
 * it stores nothing. An event counts as published once it is in memory, so
 * events the consumers have not handled yet are lost when the process exits
 * (close() waits only for the handler running now); history is the last
 * RETAINED events; it is always "connected" because there is no broker.
 */
export class InProcessTransport implements EventTransport {
  readonly kind = 'in-process' as const;
  private readonly seen = new Map<string, number>();
  private readonly retained: TransportMessage[] = [];
  private readonly durables = new Map<string, Durable>();
  private readonly subscribers = new Set<{ subject: string; handler: (m: TransportMessage) => void }>();

  constructor(private readonly subjectPrefix = 'shop') {}

  subjectFor(subject: string): string {
    return `${this.subjectPrefix}.${subject}`;
  }

  async publish(message: TransportMessage): Promise<void> {
    const id = message.headers['Nats-Msg-Id'] ?? '';
    const now = Date.now();
    for (const [seenId, at] of this.seen) if (now - at > DUPLICATE_WINDOW_MS) this.seen.delete(seenId);
    if (id && this.seen.has(id)) return;
    if (id) this.seen.set(id, now);
    this.retained.push(message);
    if (this.retained.length > RETAINED) this.retained.shift();
    for (const durable of this.durables.values()) {
      if (subjectMatches(durable.subject, message.subject)) this.enqueue(durable, message);
    }
    for (const sub of this.subscribers) {
      if (subjectMatches(sub.subject, message.subject)) queueMicrotask(() => sub.handler(message));
    }
  }

  async consume(
    name: string,
    subject: string,
    handler: (message: TransportMessage) => Promise<void>,
    options: DurableOptions = {},
  ): Promise<StopConsuming> {
    const durable: Durable = { subject, queue: [], handler, pumping: false, stopped: false, idle: Promise.resolve() };
    this.durables.set(name, durable);
    if (options.startAt !== 'new') {
      for (const message of this.retained) if (subjectMatches(subject, message.subject)) this.enqueue(durable, message);
    }
    return async () => {
      durable.stopped = true;
      this.durables.delete(name);
      await durable.idle;
    };
  }

  async pendingFor(name: string): Promise<number> {
    return this.durables.get(name)?.queue.length ?? 0;
  }

  subscribe(subject: string, handler: (message: TransportMessage) => void): () => void {
    const sub = { subject, handler };
    this.subscribers.add(sub);
    return () => this.subscribers.delete(sub);
  }

  isConnected(): boolean {
    return true;
  }

  async close(): Promise<void> {
    const durables = [...this.durables.values()];
    for (const durable of durables) durable.stopped = true;
    this.durables.clear();
    await Promise.all(durables.map((d) => d.idle));
    this.subscribers.clear();
  }

  private enqueue(durable: Durable, message: TransportMessage): void {
    durable.queue.push(message);
    if (!durable.pumping) durable.idle = this.pump(durable);
  }

  private async pump(durable: Durable): Promise<void> {
    durable.pumping = true;
    let attempt = 0;
    while (durable.queue.length && !durable.stopped) {
      try {
        await durable.handler({ ...durable.queue[0], deliveryCount: attempt + 1 });
        durable.queue.shift();
        attempt = 0;
      } catch {
        attempt++;
        await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** Math.min(attempt, 7))));
      }
    }
    durable.pumping = false;
  }
}
