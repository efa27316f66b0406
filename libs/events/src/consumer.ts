import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventType } from './event-type';
import { envelopeFromHeaders, type EventEnvelope } from './envelope';
import type { EventTransport, StopConsuming } from './transport';
import { runWithTraceparent } from './trace-context';

export type EventHandler<T> = (envelope: EventEnvelope<T>, em: EntityManager) => Promise<void>;

/**
 * Runs `handler` once per event for the durable consumer `consumer`. The
 * handler's writes and the inbox row recording the event id commit in one
 * transaction: a redelivered event finds its id and changes nothing.
 */
export async function consumeEvent<T>(options: {
  orm: MikroORM;
  schema: string;
  transport: EventTransport;
  logger: Logger;
  consumer: string;
  event: EventType<T>;
  handler: EventHandler<T>;
}): Promise<StopConsuming> {
  const { orm, schema, transport, logger, consumer, event, handler } = options;
  const durable = consumer.replace(/[^A-Za-z0-9_-]/g, '_');
  return transport.consume(durable, transport.subjectFor(event.subject), async (message) => {
    const envelope = envelopeFromHeaders(message.headers, event.codec.decode(message.data));
    await runWithTraceparent(envelope.traceparent, () =>
      orm.em.fork().transactional(async (em) => {
        const fresh = await em.execute(
          `insert into "${schema}"."inbox" (consumer, event_id, handled_at) values (?, ?, now())
           on conflict do nothing returning event_id`,
          [consumer, envelope.id],
        );
        if (!fresh.length) {
          logger.debug({ consumer, eventId: envelope.id }, 'duplicate event ignored');
          return;
        }
        await handler(envelope, em);
      }),
    );
  });
}
