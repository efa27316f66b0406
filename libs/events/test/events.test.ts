import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { defineEntity, p } from '@mikro-orm/core';
import { openDatabase, sqlMigration, messagingTablesSql, type Database } from '@storefront/persistence';
import { createTestDatabase, createTestEvents, silentLogger, waitFor, type TestDatabase } from '@storefront/testing';
import {
  connectJetStream,
  consumeEvent,
  defineEvent,
  envelopeHeaders,
  InProcessTransport,
  OutboxRelay,
  recordEvent,
  type EventTransport,
} from '../src';

const Note = defineEntity({
  name: 'Note',
  tableName: 'notes',
  properties: { id: p.integer().primary().autoincrement(), text: p.string() },
});

const NoteWritten = defineEvent<{ text: string }>('notes', 'note_written', {
  encode: (m) => ({ finish: () => Buffer.from(JSON.stringify(m)) }),
  decode: (b) => JSON.parse(Buffer.from(b).toString()),
});

const logger = silentLogger();

async function openNotes(url: string): Promise<Database> {
  const db = await openDatabase({
    url,
    schema: 'notes',
    entities: [Note],
    migrations: [
      sqlMigration('0001', [
        ...messagingTablesSql('notes'),
        `create table "notes"."notes" ("id" serial primary key, "text" varchar(255) not null)`,
        `create table "notes"."seen" ("text" varchar(255) not null)`,
      ]),
    ],
  });
  await db.migrate();
  return db;
}

const testEvents = createTestEvents();
const transports: Array<[string, () => Promise<EventTransport>]> = [
  [
    'JetStream',
    () =>
      connectJetStream({
        url: testEvents.env.NATS_URL,
        stream: testEvents.env.EVENTS_STREAM,
        subjectPrefix: testEvents.env.EVENTS_SUBJECT_PREFIX,
        name: 'events-test',
        logger,
      }),
  ],
  ['in-process', async () => new InProcessTransport(testEvents.env.EVENTS_SUBJECT_PREFIX)],
];

afterAll(() => testEvents.cleanup());

describe.each(transports)('outbox, relay and idempotent consumer over %s', (_name, connectTransport) => {
  let database: TestDatabase;
  let db: Database;
  let transport: EventTransport;
  let relay: OutboxRelay;
  let failuresLeft = 0;
  const consumer = `seen_${Math.random().toString(36).slice(2, 8)}`;
  const seen = async () =>
    (await db.em().execute<{ text: string }[]>('select text from "notes"."seen" order by text')).map((r) => r.text);

  beforeAll(async () => {
    database = await createTestDatabase('events');
    db = await openNotes(database.url);
    transport = await connectTransport();
    relay = new OutboxRelay(db.orm, 'notes', transport, logger);
    relay.start();
    await consumeEvent({
      orm: db.orm,
      schema: 'notes',
      transport,
      logger,
      consumer,
      event: NoteWritten,
      handler: async (envelope, em) => {
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error('transient failure');
        }
        await em.execute('insert into "notes"."seen" (text) values (?)', [envelope.payload.text]);
      },
    });
  });

  afterAll(async () => {
    await relay.stop();
    await transport.close();
    await db.close();
    await database.drop();
  });

  it('publishes an event committed with its change, exactly once to the consumer', async () => {
    await db.em().transactional(async (em) => {
      em.create(Note, { text: 'a' });
      recordEvent(em, NoteWritten, { text: 'a' });
    });
    await waitFor(async () => (await seen()).includes('a'));
    await waitFor(async () => (await db.em().execute('select id from "notes"."outbox"')).length === 0);
  });

  it('publishes nothing when the transaction rolls back', async () => {
    await expect(
      db.em().transactional(async (em) => {
        recordEvent(em, NoteWritten, { text: 'rolled-back' });
        await em.flush();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'b' }));
    await waitFor(async () => (await seen()).includes('b'));
    expect(await seen()).not.toContain('rolled-back');
  });

  it('ignores a redelivered event (same id)', async () => {
    const id = '7b0c5d1e-3f7a-4c55-9a51-2a8f1d9b7c01';
    const message = {
      subject: transport.subjectFor(NoteWritten.subject),
      data: NoteWritten.codec.encode({ text: 'dup' }).finish(),
      headers: envelopeHeaders({ id, type: NoteWritten.type, occurredAt: new Date() }),
    };
    await transport.publish(message);
    await transport.publish(message);
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'dup-sentinel' }));
    await waitFor(async () => (await seen()).includes('dup-sentinel'));
    expect((await seen()).filter((t) => t === 'dup')).toHaveLength(1);
  });

  it('redelivers after a failing handler until it succeeds, applying the effect once', async () => {
    failuresLeft = 1;
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'retry' }));
    await waitFor(async () => (await seen()).includes('retry'), 10_000);
    expect((await seen()).filter((t) => t === 'retry')).toHaveLength(1);
    expect(failuresLeft).toBe(0);
  });
});
