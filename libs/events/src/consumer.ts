import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventType } from './event-type';
import { envelopeFromHeaders, type EventEnvelope } from './envelope';
import type { DurableOptions, EventTransport, StopConsuming, TransportMessage } from './transport';
import { runWithTraceparent, SpanKind, type Tracing } from '@storefront/telemetry';

/** A consumer's record of having handled an event: its inbox row's key. */
export interface InboxKey {
  consumer: string;
  eventId: string;
}

/**
 * The CTE `<name> as (insert into "<schema>"."inbox" ...)` recording a handled
 * event in the statement that does its work: it returns a row only when the
 * event is new (a redelivery, or a concurrent duplicate once the first
 * commits, inserts nothing). With `when`, the event is recorded only if that
 * condition holds. Its parameters, in order: `inboxParams(key)`, then those of
 * `when`.
 */
export function inboxInsert(schema: string, name: string, when?: string): string {
  return `${name} as (
       insert into "${schema}"."inbox" (consumer, event_id, handled_at) select ?, ?, now()${when ? ` where ${when}` : ''}
       on conflict do nothing returning 1
     )`;
}

export const inboxParams = (key: InboxKey): [string, string] => [key.consumer, key.eventId];

/**
 * A query returning a row when the consumer has handled the event already
 * (parameters: `inboxParams(key)`): for a handler whose side effect (an email
 * sent) comes before its write, so a redelivery skips it.
 */
export const inboxHoldsQuery = (schema: string): string => `select 1 from "${schema}"."inbox" where consumer = ? and event_id = ?`;

export type EventHandler<T> = (envelope: EventEnvelope<T>, em: EntityManager) => Promise<void>;

/**
 * Tried before the inbox transaction: true when the event needs nothing more
 * (it is acknowledged with no transaction and no inbox row), false to run the
 * handler as usual. It must stay correct under redelivery on its own: either
 * its answer and effects depend only on the payload (and are idempotent), or
 * it records the inbox row (`consumer`, `envelope.id`) itself in the same
 * statement that reads what it decides on. Most events of a busy consumer
 * often need nothing (an order without coupons, a guest's order): this spares
 * them a transaction of four round trips.
 */
export type EventShortcut<T> = (envelope: EventEnvelope<T>, consumer: string) => Promise<boolean>;

/**
 * A consumer whose whole work is idempotent on its own (one statement that a
 * redelivery repeats harmlessly): it never needs the inbox, so the same step
 * runs as the shortcut (which then acknowledges) and, should a caller bypass
 * shortcuts, as the handler.
 */
export function idempotentConsumer<T>(run: (envelope: EventEnvelope<T>) => Promise<void>): { handler: EventHandler<T>; shortcut: EventShortcut<T> } {
  return {
    handler: (envelope) => run(envelope),
    shortcut: async (envelope) => {
      await run(envelope);
      return true;
    },
  };
}

export interface ConsumeOptions<T> {
  shortcut?: EventShortcut<T>;
  /** Where a new durable starts (DurableOptions): `new` for a consumer added to a running system. */
  startAt?: DurableOptions['startAt'];
}

/** Deliveries of one event to one consumer before it is parked as poison (EVENTS_MAX_DELIVER). */
export const DEFAULT_MAX_DELIVER = 10;

/**
 * Runs `handler` once per event for the durable consumer `consumer`. The
 * handler's writes and the inbox row recording the event id commit in one
 * transaction: a redelivered event finds its id and changes nothing.
 *
 * Delivery is capped: when the handler (or decoding) fails on the
 * `maxDeliver`-th delivery, the event is parked in the consumer's
 * `parked_event` table (payload, headers, last error) and acknowledged, so a
 * poison message stops cycling; an operator lists and replays parked events
 * (docs/operations.md). The cap is enforced here and not by JetStream's
 * `max_deliver`, which would drop the message silently; and because parking
 * needs the database, a database outage never parks anything (the event is
 * redelivered until the database is back and the handler runs).
 */
export async function consumeEvent<T>(options: {
  orm: MikroORM;
  schema: string;
  transport: EventTransport;
  logger: Logger;
  consumer: string;
  event: EventType<T>;
  handler: EventHandler<T>;
  maxDeliver?: number;
  /** When set, each handling is a CONSUMER span under the publish span (the message's traceparent). */
  tracing?: Tracing;
  shortcut?: EventShortcut<T>;
  startAt?: DurableOptions['startAt'];
}): Promise<StopConsuming> {
  const { orm, schema, transport, logger, consumer, event, handler, tracing, shortcut } = options;
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  const durable = durableName(consumer);
  const handle = async (message: TransportMessage) => {
    const envelope = envelopeFromHeaders(message.headers, event.codec.decode(message.data));
    const inTrace = (fn: () => Promise<void>) =>
      tracing
        ? tracing.run(
            `process ${event.type}`,
            SpanKind.CONSUMER,
            envelope.traceparent,
            {
              'messaging.system': 'nats',
              'messaging.operation.type': 'process',
              'messaging.destination.name': message.subject,
              'messaging.consumer.group.name': consumer,
              'messaging.message.id': envelope.id,
              'messaging.message.delivery_count': message.deliveryCount ?? 1,
            },
            fn,
          )
        : runWithTraceparent(envelope.traceparent, fn);
    await inTrace(async () => {
      if (shortcut && (await shortcut(envelope, consumer))) {
        logger.debug({ consumer, eventId: envelope.id }, 'event needed no transaction');
        return;
      }
      await orm.em.fork().transactional(async (em) => {
        const fresh = await em.execute(`with ${inboxInsert(schema, 'handled')} select 1 from handled`, inboxParams({ consumer, eventId: envelope.id }));
        if (!fresh.length) {
          logger.debug({ consumer, eventId: envelope.id }, 'duplicate event ignored');
          return;
        }
        await handler(envelope, em);
      });
    });
  };
  return transport.consume(durable, transport.subjectFor(event.subject), async (message) => {
    try {
      await handle(message);
    } catch (err) {
      const deliveries = message.deliveryCount ?? 1;
      if (deliveries < maxDeliver) throw err;
      await parkEvent(orm, schema, consumer, event.subject, message, deliveries, err);
      logger.error(
        { err, consumer, subject: message.subject, deliveries },
        'event parked after its delivery limit (see parked_event)',
      );
    }
  }, { startAt: options.startAt });
}

/** The durable consumer name `consumeEvent` registers for `consumer`. */
export function durableName(consumer: string): string {
  return consumer.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** Parked events per consumer of this service (metrics). */
export async function parkedEventCounts(orm: MikroORM, schema: string): Promise<Record<string, number>> {
  const rows = await orm.em
    .getConnection()
    .execute<Array<{ consumer: string; count: string }>>(`select consumer, count(*) as count from "${schema}"."parked_event" group by consumer`);
  return Object.fromEntries(rows.map((r) => [r.consumer, Number(r.count)]));
}

async function parkEvent(
  orm: MikroORM,
  schema: string,
  consumer: string,
  subject: string,
  message: TransportMessage,
  deliveries: number,
  err: unknown,
): Promise<void> {
  const id = message.headers['Shop-Event-Id'] || message.headers['Nats-Msg-Id'] || randomUUID();
  await orm.em.getConnection().execute(
    `insert into "${schema}"."parked_event" (consumer, event_id, subject, headers, payload, deliveries, last_error, parked_at)
     values (?, ?, ?, ?, ?, ?, ?, now())
     on conflict (consumer, event_id) do update set deliveries = excluded.deliveries,
       last_error = excluded.last_error, parked_at = now()`,
    [
      consumer,
      /^[0-9a-f-]{36}$/i.test(id) ? id : randomUUID(),
      subject,
      JSON.stringify(message.headers),
      Buffer.from(message.data),
      deliveries,
      String((err as Error)?.message ?? err).slice(0, 1000),
    ],
  );
}

/**
 * Replays parked events of `consumer` (all, or the given event ids): each goes
 * back through this service's outbox under a fresh broker message id and its
 * original event id, so this consumer handles it again while consumers that
 * already handled it find it in their inbox. Returns how many were replayed.
 */
export async function replayParkedEvents(
  orm: MikroORM,
  schema: string,
  consumer: string,
  eventIds?: string[],
): Promise<number> {
  if (eventIds && !eventIds.length) return 0;
  return orm.em.fork().transactional(async (em) => {
    const rows = await em.execute<Array<{ event_id: string; subject: string; headers: Record<string, string>; payload: Buffer }>>(
      `delete from "${schema}"."parked_event" where consumer = ? ${eventIds ? 'and event_id in (?)' : ''}
       returning event_id, subject, headers, payload`,
      eventIds ? [consumer, eventIds] : [consumer],
    );
    for (const row of rows) {
      const headers = typeof row.headers === 'string' ? JSON.parse(row.headers) : row.headers;
      const messageId = randomUUID();
      await em.execute(
        `insert into "${schema}"."outbox" (id, subject, type, payload, headers, occurred_at, attempts)
         values (?, ?, ?, ?, ?, now(), 0)`,
        [
          messageId,
          row.subject,
          headers['Shop-Event-Type'] ?? '',
          row.payload,
          JSON.stringify({ ...headers, 'Nats-Msg-Id': messageId, 'Shop-Event-Id': row.event_id }),
        ],
      );
    }
    return rows.length;
  });
}
