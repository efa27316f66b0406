import { randomUUID } from 'node:crypto';
import { connect, headers as natsHeaders, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager, type PubAck } from '@nats-io/jetstream';
import { envelopeHeaders, type EventType } from '@storefront/events';
import { waitFor } from '@storefront/testing';

/**
 * Publishes events as the orders service would, on the test's own stream, and
 * can deliver one event a second time FOR REAL: JetStream drops a republish
 * with the same Nats-Msg-Id inside its duplicate window, so `redeliver`
 * shrinks the window, republishes the same envelope (same event id) until the
 * broker stores it, waits until the consumer has acknowledged it, and restores
 * the window. Only the consumer's inbox can then keep it from acting twice.
 */
export class OrderEventsPublisher {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static async connect(env: NodeJS.ProcessEnv): Promise<OrderEventsPublisher> {
    const nc = await connect({ servers: env.NATS_URL! });
    return new OrderEventsPublisher(nc, await jetstreamManager(nc), env);
  }

  async publish<T>(event: EventType<T>, payload: T, id: string = randomUUID(), occurredAt = new Date()): Promise<PubAck> {
    const h = natsHeaders();
    for (const [k, v] of Object.entries(envelopeHeaders({ id, type: event.type, occurredAt }))) h.set(k, v);
    return jetstream(this.nc).publish(
      `${this.env.EVENTS_SUBJECT_PREFIX}.${event.subject}`,
      event.codec.encode(payload).finish(),
      { msgID: id, headers: h },
    );
  }

  /** Waits until the durable consumer has acknowledged every message up to stream sequence `seq`. */
  async handled(consumer: string, seq: number, timeoutMs = 15_000): Promise<void> {
    const durable = consumer.replace(/[^A-Za-z0-9_-]/g, '_');
    await waitFor(
      async () => (await this.jsm.consumers.info(this.env.EVENTS_STREAM!, durable)).ack_floor.stream_seq >= seq,
      timeoutMs,
      50,
    );
  }

  /** Delivers the event with this id again (a true second delivery, see above); resolves once it is handled. */
  async redeliver<T>(consumer: string, event: EventType<T>, payload: T, id: string): Promise<void> {
    const stream = this.env.EVENTS_STREAM!;
    const { config } = await this.jsm.streams.info(stream);
    await this.jsm.streams.update(stream, { ...config, duplicate_window: nanos(100) });
    try {
      const ack = await waitFor(async () => {
        const a = await this.publish(event, payload, id);
        return a.duplicate ? null : a;
      }, 10_000, 150);
      await this.handled(consumer, ack!.seq);
    } finally {
      await this.jsm.streams.update(stream, { ...config });
    }
  }

  async close(): Promise<void> {
    await this.nc.close();
  }
}
