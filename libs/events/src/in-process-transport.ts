import type { EventTransport, StopConsuming, TransportMessage } from './transport';
import { subjectMatches } from './transport';

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const RETAINED = 10_000;

interface Durable {
  subject: string;
  queue: TransportMessage[];
  handler: (message: TransportMessage) => Promise<void>;
  pumping: boolean;
  stopped: boolean;
}

/**
 * The development launcher's event bus, used only when no NATS_URL is given
 * (every service then runs in one process). Same contract as JetStream: dedupe
 * by Nats-Msg-Id within a window, durable consumers that replay retained
 * history when they first attach and retry a failing handler, broadcast
 * subscriptions. Tests and production use JetStream.
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
  ): Promise<StopConsuming> {
    const durable: Durable = { subject, queue: [], handler, pumping: false, stopped: false };
    this.durables.set(name, durable);
    for (const message of this.retained) if (subjectMatches(subject, message.subject)) this.enqueue(durable, message);
    return async () => {
      durable.stopped = true;
      this.durables.delete(name);
    };
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
    for (const durable of this.durables.values()) durable.stopped = true;
    this.durables.clear();
    this.subscribers.clear();
  }

  private enqueue(durable: Durable, message: TransportMessage): void {
    durable.queue.push(message);
    if (!durable.pumping) void this.pump(durable);
  }

  private async pump(durable: Durable): Promise<void> {
    durable.pumping = true;
    let attempt = 0;
    while (durable.queue.length && !durable.stopped) {
      try {
        await durable.handler(durable.queue[0]);
        durable.queue.shift();
        attempt = 0;
      } catch {
        attempt++;
        await new Promise((r) => setTimeout(r, Math.min(30_000, 250 * 2 ** Math.min(attempt, 7))));
      }
    }
    durable.pumping = false;
  }
}
