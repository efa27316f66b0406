import { connect, headers as natsHeaders, nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { Logger } from 'pino';
import type { DurableOptions, EventTransport, StopConsuming, TransportMessage } from './transport';

export interface JetStreamOptions {
  url: string;
  /** Stream name (`SHOP`); tests use one stream per test file. */
  stream: string;
  /** First subject token (`shop`); the stream captures `<prefix>.>`. */
  subjectPrefix: string;
  /** Connection name shown by the server (the service's name). */
  name: string;
  logger: Logger;
}

const DUPLICATE_WINDOW_MS = 2 * 60 * 1000;
const MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** The longest a publish waits for its ack (the client's JetStream default), outage or not. */
const PUBLISH_ACK_TIMEOUT_MS = 5000;

/** Connects to NATS, makes sure the stream exists, and returns a JetStream-backed transport. */
export async function connectJetStream(options: JetStreamOptions): Promise<EventTransport> {
  const nc = await connect({
    servers: options.url,
    name: options.name,
    // Never give up, retry every half second (with jitter): back within seconds of the server.
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    reconnectJitter: 200,
    // Every request (each publish's ack, each pull) would otherwise build an Error up front
    // for its stack, in case it times out: measurable CPU on the outbox relay's hot path.
    noAsyncTraces: true,
  });
  const jsm = await jetstreamManager(nc);
  await ensureStream(jsm, options);
  return new JetStreamTransport(nc, jsm, jetstream(nc), options);
}

async function ensureStream(jsm: JetStreamManager, options: JetStreamOptions): Promise<void> {
  const config = {
    name: options.stream,
    subjects: [`${options.subjectPrefix}.>`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    max_age: nanos(MAX_AGE_MS),
  };
  try {
    await jsm.streams.info(options.stream);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // A sibling service created it first.
      await jsm.streams.info(options.stream).catch(() => Promise.reject(err));
    }
  }
}

/** Thrown by `publish` when the broker is unreachable: not the message's fault (the relay does not count it). */
export class BrokerUnavailableError extends Error {
  override name = 'BrokerUnavailableError';
}

class JetStreamTransport implements EventTransport {
  readonly kind = 'jetstream' as const;
  private connected = true;
  private readonly stops = new Set<StopConsuming>();
  private readonly reconnectListeners = new Set<() => void>();
  /** Rejects the publishes waiting for an ack when the connection drops. */
  private readonly inFlight = new Set<(err: Error) => void>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
    private readonly js: JetStreamClient,
    private readonly options: JetStreamOptions,
  ) {
    void this.watchStatus();
  }

  subjectFor(subject: string): string {
    return `${this.options.subjectPrefix}.${subject}`;
  }

  async publish(message: TransportMessage): Promise<void> {
    // While disconnected the client would buffer the request and wait out the whole
    // JetStream timeout (5 s), holding the relay past the server's return: fail fast,
    // and give up on an ack the lost connection will never bring.
    if (!this.isConnected()) throw new BrokerUnavailableError('NATS disconnected');
    const id = message.headers['Nats-Msg-Id'];
    const ack = this.js.publish(message.subject, message.data, { msgID: id, headers: toNatsHeaders(message.headers) });
    let abort: (err: Error) => void = () => undefined;
    const lost = new Promise<never>((_, reject) => (abort = reject));
    this.inFlight.add(abort);
    // A publish caught by an outage before the client noticed it can outlive the client's own timeout:
    // bounded here, so the relay hands its rows back (a late ack's twin is deduplicated by msgID).
    const timer = setTimeout(() => abort(new BrokerUnavailableError('NATS publish not acknowledged in time')), PUBLISH_ACK_TIMEOUT_MS);
    try {
      await Promise.race([ack, lost]);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
      ack.catch(() => undefined);
    }
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async consume(
    durable: string,
    subject: string,
    handler: (message: TransportMessage) => Promise<void>,
    options: DurableOptions = {},
  ): Promise<StopConsuming> {
    // The start policy applies to a new durable only; an existing one keeps its own (and its position).
    const existing = await this.jsm.consumers.info(this.options.stream, durable).catch(() => undefined);
    await this.jsm.consumers.add(this.options.stream, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: existing?.config.deliver_policy ?? (options.startAt === 'new' ? DeliverPolicy.New : DeliverPolicy.All),
      filter_subject: subject,
      ack_wait: nanos(30_000),
    });
    const consumer = await this.js.consumers.get(this.options.stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const loop = (async () => {
      for await (const msg of messages) await this.handle(msg, handler);
    })();
    const stop = async () => {
      this.stops.delete(stop);
      await messages.close();
      await loop.catch(() => undefined);
    };
    this.stops.add(stop);
    return stop;
  }

  async pendingFor(durable: string): Promise<number> {
    const info = await this.jsm.consumers.info(this.options.stream, durable);
    return info.num_pending + info.num_ack_pending;
  }

  subscribe(subject: string, handler: (message: TransportMessage) => void): () => void {
    const sub = this.nc.subscribe(subject, {
      callback: (err, msg) => {
        if (err) return;
        handler({ subject: msg.subject, data: msg.data, headers: fromNatsHeaders(msg.headers) });
      },
    });
    return () => sub.unsubscribe();
  }

  isConnected(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  async close(): Promise<void> {
    await Promise.all([...this.stops].map((stop) => stop()));
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  private async handle(msg: JsMsg, handler: (message: TransportMessage) => Promise<void>): Promise<void> {
    try {
      await handler({
        subject: msg.subject,
        data: msg.data,
        headers: fromNatsHeaders(msg.headers),
        deliveryCount: msg.info.deliveryCount,
      });
      msg.ack();
    } catch (err) {
      const attempt = msg.info.deliveryCount;
      this.options.logger.warn({ err, subject: msg.subject, attempt }, 'event handler failed; redelivering');
      msg.nak(Math.min(30_000, 250 * 2 ** Math.min(attempt, 7)));
    }
  }

  private async watchStatus(): Promise<void> {
    const log = this.options.logger;
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') {
        this.connected = false;
        for (const abort of this.inFlight) abort(new BrokerUnavailableError('NATS disconnected before the ack'));
        log.warn({ server: this.options.url }, 'NATS disconnected; events wait in the outbox, reconnecting');
      }
      if (status.type === 'reconnect') {
        this.connected = true;
        log.info({ server: this.options.url }, 'NATS reconnected');
        for (const listener of this.reconnectListeners) listener();
      }
    }
  }
}

function toNatsHeaders(headers: Record<string, string>): MsgHdrs {
  const h = natsHeaders();
  for (const [key, value] of Object.entries(headers)) h.set(key, value);
  return h;
}

function fromNatsHeaders(headers: MsgHdrs | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  for (const key of headers.keys()) out[key] = headers.get(key);
  return out;
}
