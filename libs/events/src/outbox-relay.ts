import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventTransport } from './transport';

interface ClaimedRow {
  id: string;
  subject: string;
  payload: Buffer;
  headers: Record<string, string>;
  occurred_at: Date;
}

const BATCH = 100;
const POLL_MS = 1000;
const CLAIM_SECONDS = 30;

/**
 * Publishes committed outbox rows to the event transport and deletes them once
 * the broker acknowledged. Rows are claimed with SKIP LOCKED, so several
 * replicas can relay side by side; the claim is one statement, so no
 * transaction stays open while publishing. Wakes on every commit and polls as
 * a fallback. At-least-once: the broker drops duplicates by Nats-Msg-Id and
 * consumers by their inbox.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly schema: string,
    private readonly transport: EventTransport,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.orm.em.getEventManager().registerSubscriber({ afterTransactionCommit: () => this.wake() });
    this.schedule();
    this.wake();
  }

  /** Drain now (coalesced with a drain already running). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.logger.warn({ err }, 'outbox relay paused'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Publishes until the outbox is empty. */
  async drain(): Promise<void> {
    for (;;) {
      const rows = await this.claim();
      if (!rows.length) return;
      const published: string[] = [];
      try {
        for (const row of rows) {
          await this.transport.publish({
            subject: this.transport.subjectFor(row.subject),
            data: row.payload,
            headers: row.headers,
          });
          published.push(row.id);
        }
      } finally {
        await this.settle(published, rows.map((r) => r.id).filter((id) => !published.includes(id)));
      }
    }
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, POLL_MS);
    this.timer.unref();
  }

  private async claim(): Promise<ClaimedRow[]> {
    const table = `"${this.schema}"."outbox"`;
    const rows = await this.orm.em.getConnection().execute<ClaimedRow[]>(
      `update ${table} set claimed_until = now() + interval '${CLAIM_SECONDS} seconds', attempts = attempts + 1
       where id in (select id from ${table}
                    where claimed_until is null or claimed_until < now()
                    order by occurred_at limit ${BATCH} for update skip locked)
       returning id, subject, payload, headers, occurred_at`,
    );
    return rows.sort((a, b) => +new Date(a.occurred_at) - +new Date(b.occurred_at));
  }

  private async settle(published: string[], unpublished: string[]): Promise<void> {
    const conn = this.orm.em.getConnection();
    const table = `"${this.schema}"."outbox"`;
    if (published.length) await conn.execute(`delete from ${table} where id in (?)`, [published]);
    if (unpublished.length) {
      await conn.execute(`update ${table} set claimed_until = null where id in (?)`, [unpublished]);
    }
  }
}
