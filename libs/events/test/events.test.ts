import { randomUUID } from 'node:crypto';
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
  outboxInsert,
  outboxParams,
  outboxRow,
  recordEvent,
  replayParkedEvents,
  replayParkedOutbox,
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

describe.each(transports)('outbox, relay and idempotent consumer over %s', (name, connectTransport) => {
  let database: TestDatabase;
  let db: Database;
  let transport: EventTransport;
  let relay: OutboxRelay;
  let failuresLeft = 0;
  let poisonActive = true;
  const consumer = `seen_${Math.random().toString(36).slice(2, 8)}`;
  const seen = async () =>
    (await db.em().execute<{ text: string }[]>('select text from "notes"."seen" order by text')).map((r) => r.text);

  beforeAll(async () => {
    database = await createTestDatabase('events');
    db = await openNotes(database.url);
    transport = await connectTransport();
    relay = new OutboxRelay(db.orm, 'notes', transport, logger, { maxAttempts: 3, baseBackoffMs: 50, pollMs: 200 });
    relay.start();
    await consumeEvent({
      orm: db.orm,
      schema: 'notes',
      transport,
      logger,
      consumer,
      event: NoteWritten,
      maxDeliver: 3,
      // Events needing nothing (here: "skip-..." texts) are acknowledged without a transaction.
      shortcut: async (envelope) => envelope.payload.text.startsWith('skip-'),
      handler: async (envelope, em) => {
        if (poisonActive && envelope.payload.text.startsWith('poison')) throw new Error('cannot handle poison');
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

  it('acknowledges an event its shortcut handles without running the handler or writing the inbox', async () => {
    const id = randomUUID();
    await transport.publish({
      subject: transport.subjectFor(NoteWritten.subject),
      data: NoteWritten.codec.encode({ text: 'skip-me' }).finish(),
      headers: envelopeHeaders({ id, type: NoteWritten.type, occurredAt: new Date() }),
    });
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'shortcut-sentinel' }));
    await waitFor(async () => (await seen()).includes('shortcut-sentinel'));
    expect(await seen()).not.toContain('skip-me');
    const inbox = await db.em().execute('select 1 from "notes"."inbox" where consumer = ? and event_id = ?', [consumer, id]);
    expect(inbox).toHaveLength(0);
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

  it('really delivers an event twice (new broker message id, same event id) and applies it once', async () => {
    const id = randomUUID();
    const subject = transport.subjectFor(NoteWritten.subject);
    const delivered: string[] = [];
    const unsubscribe = transport.subscribe(subject, (m) => {
      if (m.headers['Shop-Event-Id'] === id) delivered.push(m.headers['Nats-Msg-Id']);
    });
    try {
      const headers = envelopeHeaders({ id, type: NoteWritten.type, occurredAt: new Date() });
      const data = NoteWritten.codec.encode({ text: 'twice' }).finish();
      // As the relay does when it republishes a row after the broker's dedupe window
      // (delete lost after publish) or an operator replays: the broker keeps both.
      await transport.publish({ subject, data, headers: { ...headers, 'Nats-Msg-Id': randomUUID() } });
      await transport.publish({ subject, data, headers: { ...headers, 'Nats-Msg-Id': randomUUID() } });
      await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'twice-sentinel' }));
      await waitFor(async () => (await seen()).includes('twice-sentinel'));
      await waitFor(async () => delivered.length === 2);
      // Both copies reached the durable consumer: its inbox held the first one's id.
      const inbox = await db.em().execute('select 1 from "notes"."inbox" where consumer = ? and event_id = ?', [consumer, id]);
      expect(inbox).toHaveLength(1);
      expect((await seen()).filter((t) => t === 'twice')).toHaveLength(1);
    } finally {
      unsubscribe();
    }
  });

  it('parks a poison event after its delivery limit, keeps consuming, and replays it on request', async () => {
    poisonActive = true;
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'poison-1' }));
    await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text: 'after-poison' }));
    await waitFor(async () => (await seen()).includes('after-poison'), 20_000);
    await waitFor(
      async () => (await db.em().execute('select 1 from "notes"."parked_event" where consumer = ?', [consumer])).length === 1,
      20_000,
    );
    const [parked] = await db.em().execute<Array<{ deliveries: number; last_error: string }>>(
      'select deliveries, last_error from "notes"."parked_event" where consumer = ?',
      [consumer],
    );
    expect(parked).toMatchObject({ deliveries: 3, last_error: 'cannot handle poison' });
    expect(await seen()).not.toContain('poison-1');

    poisonActive = false; // the operator fixed the cause
    expect(await replayParkedEvents(db.orm, 'notes', consumer)).toBe(1);
    await waitFor(async () => (await seen()).includes('poison-1'), 20_000);
    expect(await db.em().execute('select 1 from "notes"."parked_event"')).toHaveLength(0);
  });

  if (name === 'JetStream') {
    it('parks an outbox row the broker refuses while the rows behind it still go out', async () => {
      // A real poison row: a payload over the server's max_payload (1 MB) is refused every time.
      const poisonId = randomUUID();
      await db.em().execute(
        `insert into "notes"."outbox" (id, subject, type, payload, headers, occurred_at, attempts)
         values (?, ?, ?, ?, ?, now() - interval '1 minute', 0)`,
        [
          poisonId,
          NoteWritten.subject,
          NoteWritten.type,
          Buffer.alloc(2 * 1024 * 1024, 1),
          JSON.stringify(envelopeHeaders({ id: poisonId, type: NoteWritten.type, occurredAt: new Date() })),
        ],
      );
      for (const text of ['behind-1', 'behind-2', 'behind-3']) {
        await db.em().transactional(async (em) => void recordEvent(em, NoteWritten, { text }));
      }
      await waitFor(async () => ['behind-1', 'behind-2', 'behind-3'].every((t) => seen().then((s) => s.includes(t))), 20_000);
      await waitFor(async () => {
        const rows = await db.em().execute<Array<{ parked_at: Date | null }>>('select parked_at from "notes"."outbox" where id = ?', [poisonId]);
        return rows[0]?.parked_at != null;
      }, 20_000);
      const [row] = await db.em().execute<Array<{ attempts: number; last_error: string }>>(
        'select attempts, last_error from "notes"."outbox" where id = ?',
        [poisonId],
      );
      expect(row.attempts).toBe(3);
      expect(row.last_error).toMatch(/payload/i);
      expect(await relay.stats()).toMatchObject({ parked: 1, pending: 0 });
      expect(await replayParkedOutbox(db.orm, 'notes', [poisonId])).toBe(1);
      expect((await relay.stats()).parked + (await relay.stats()).pending).toBe(1);
    });
  }
});

describe('events written in the statement of their change (outboxInsert)', () => {
  let database: TestDatabase;
  let db: Database;
  let transport: InProcessTransport;
  let relay: OutboxRelay;
  const received: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('events_statement');
    db = await openNotes(database.url);
    transport = new InProcessTransport(testEvents.env.EVENTS_SUBJECT_PREFIX);
    // A poll far beyond the test: only the wake-up can publish in time.
    relay = new OutboxRelay(db.orm, 'notes', transport, logger, { pollMs: 600_000, wakeOn: db.onOutboxWritten });
    relay.start();
    transport.subscribe(transport.subjectFor(NoteWritten.subject), (m) => received.push(NoteWritten.codec.decode(m.data).text));
  });
  afterAll(async () => {
    await relay.stop();
    await transport.close();
    await db.close();
    await database.drop();
  });

  /** Inserts a note unless its text exists, with its event in the same statement. */
  const writeNote = async (text: string) => {
    const rows = [outboxRow(NoteWritten, { text })];
    const written = await db.reader.query<{ id: number }>(
      `with n as (insert into "notes"."notes" (text) select ? where not exists (select 1 from "notes"."notes" where text = ?) returning id),
       ${outboxInsert('notes', 'e', rows.length, 'n')}
       select id from n`,
      [text, text, ...outboxParams(rows)],
    );
    db.outboxWritten();
    return written.length === 1;
  };

  it('publishes the event of a write at once (the relay is woken, not polled)', async () => {
    expect(await writeNote('one-statement')).toBe(true);
    await waitFor(async () => received.includes('one-statement'), 5_000, 20);
  });

  it('writes no event when the guarded change wrote nothing', async () => {
    expect(await writeNote('one-statement')).toBe(false);
    expect(await writeNote('after')).toBe(true);
    await waitFor(async () => received.includes('after'), 5_000, 20);
    expect(received.filter((t) => t === 'one-statement')).toHaveLength(1);
  });
});
