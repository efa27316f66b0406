import type { MikroORM, UnitOfWork } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { EventTransport } from './transport';
import { failSpan, SpanKind, traceparentOf, type Tracing } from '@storefront/telemetry';

interface ClaimedRow {
  id: string;
  subject: string;
  payload: Buffer;
  headers: Record<string, string>;
  occurred_at: Date;
  attempts: number;
}

export interface OutboxRelayOptions {
  /** Failed publishes of one row before it is parked (skipped until an operator replays it). */
  maxAttempts?: number;
  /** First retry delay of a failing row; doubles per attempt up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  pollMs?: number;
  /**
   * When set, each publish is a PRODUCER span under the trace stored with the
   * row (the request that recorded the event), and the message carries the
   * span's traceparent, so consumer spans continue that trace.
   */
  tracing?: Tracing;
  /** Told about every event the broker acknowledged (metrics: events by type, outbox delay). */
  onPublished?: (event: PublishedEvent) => void;
  /** Subscribes to commits of outbox rows made outside MikroORM (`Database.onOutboxWritten`). */
  wakeOn?: (listener: () => void) => () => void;
}

export interface PublishedEvent {
  /** `order_paid`... (the Shop-Event-Type header). */
  type: string;
  /** Seconds from the event's recording to the broker's acknowledgement. */
  delaySeconds: number;
}

export interface OutboxStats {
  /** Rows waiting to be published (parked ones excluded). */
  pending: number;
  /** Rows parked after `maxAttempts` failures. */
  parked: number;
  /** Age in seconds of the oldest pending row; 0 when none. */
  oldestAgeSeconds: number;
}

const BATCH = 100;
const CLAIM_SECONDS = 30;

/**
 * Publishes committed outbox rows to the event transport and deletes them once
 * the broker acknowledged. Rows are claimed with SKIP LOCKED, so several
 * replicas can relay side by side; the claim is one statement, so no
 * transaction stays open while publishing. Wakes on every commit and polls as
 * a fallback. At-least-once: the broker drops duplicates by Nats-Msg-Id and
 * consumers by their inbox.
 *
 * Failures are per row: a row the broker refuses waits `next_attempt_at`
 * (exponential backoff from `attempts`) while the rows behind it go out, and
 * after `maxAttempts` refusals it is parked (`parked_at`, `last_error`) for an
 * operator (docs/operations.md, "Outbox"). While the transport is
 * disconnected nothing is counted: an outage parks nothing, the rows wait.
 */
export class OutboxRelay {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly maxAttempts: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly pollMs: number;
  private paused = false;
  private unwatch: (() => void) | undefined;
  private readonly tracing: Tracing | undefined;
  private readonly wakeOn: OutboxRelayOptions['wakeOn'];
  private readonly onPublished: ((event: PublishedEvent) => void) | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly schema: string,
    private readonly transport: EventTransport,
    private readonly logger: Logger,
    options: OutboxRelayOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 12;
    // Small first steps: a row that failed just as the broker came back goes out within a second.
    this.baseBackoffMs = options.baseBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 5 * 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.tracing = options.tracing;
    this.onPublished = options.onPublished;
    this.wakeOn = options.wakeOn;
  }

  start(): void {
    // Woken by the commits that wrote outbox rows (a consumer's inbox-only
    // transaction has nothing to publish; the poll covers anything else).
    this.orm.em.getEventManager().registerSubscriber({
      afterTransactionCommit: ({ uow }) => {
        if (!uow || wroteOutbox(uow)) this.wake();
      },
    });
    const unwatchWrites = this.wakeOn?.(() => this.wake());
    // Back from an outage: drain now rather than at the next poll.
    const unwatchReconnect = this.transport.onReconnect?.(() => this.wake());
    this.unwatch = () => {
      unwatchWrites?.();
      unwatchReconnect?.();
    };
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
      .then(() => {
        if (this.paused) this.logger.info({ schema: this.schema }, 'outbox relay resumed');
        this.paused = false;
      })
      .catch((err) => {
        // Database or broker unavailable: logged once per outage, retried every poll.
        if (!this.paused) this.logger.warn({ err, schema: this.schema }, 'outbox relay paused; retrying');
        this.paused = true;
      })
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
    this.unwatch?.();
    await this.running;
  }

  /**
   * Publishes every row that is due, until none is left. The published rows
   * of a batch are deleted together, once the batch is through (or at the
   * failure that stops it): a crash in between republishes them, which the
   * broker's dedupe and the consumers' inboxes absorb, as for any crash after
   * a publish. A batch smaller than the claim limit was everything due; rows
   * committed meanwhile wake another drain.
   */
  async drain(): Promise<void> {
    for (;;) {
      const rows = await this.claim();
      if (!rows.length) return;
      const published: string[] = [];
      let index = 0;
      try {
        for (; index < rows.length; index++) {
          const row = rows[index];
          const subject = this.transport.subjectFor(row.subject);
          const span = this.tracing?.start(`publish ${row.headers['Shop-Event-Type'] ?? row.subject}`, SpanKind.PRODUCER, row.headers.traceparent, {
            'messaging.system': 'nats',
            'messaging.operation.type': 'send',
            'messaging.destination.name': subject,
            'messaging.message.id': row.id,
            'outbox.attempts': row.attempts,
            'outbox.wait_ms': Date.now() - new Date(row.occurred_at).getTime(),
          });
          try {
            await this.transport.publish({
              subject,
              data: row.payload,
              headers: span ? { ...row.headers, traceparent: traceparentOf(span) } : row.headers,
            });
            span?.end();
          } catch (err) {
            if (span) {
              failSpan(span, err);
              span.end();
            }
            // Broker outage, not this row's fault: the batch goes back uncounted (below).
            if (!this.transport.isConnected() || isBrokerUnavailable(err)) throw err;
            await this.recordFailure(row, err);
            continue;
          }
          published.push(row.id);
          this.onPublished?.({
            type: row.headers['Shop-Event-Type'] ?? row.subject,
            delaySeconds: (Date.now() - new Date(row.occurred_at).getTime()) / 1000,
          });
        }
      } catch (err) {
        // Broker outage or a lost database connection: hand the unfinished rows back
        // now rather than leaving them claimed for CLAIM_SECONDS (on a fresh
        // connection; if the database is really down, the claim expires instead).
        await this.remove(published).catch(() => undefined);
        await this.release(rows.slice(index).map((r) => r.id)).catch(() => undefined);
        throw err;
      }
      await this.remove(published);
      if (rows.length < BATCH) return;
    }
  }

  /** Backlog figures for metrics and health details. */
  async stats(): Promise<OutboxStats> {
    const [row] = await this.orm.em.getConnection().execute<
      Array<{ pending: string; parked: string; oldest: number | string | null }>
    >(
      `select count(*) filter (where parked_at is null) as pending,
              count(*) filter (where parked_at is not null) as parked,
              extract(epoch from now() - min(occurred_at) filter (where parked_at is null)) as oldest
       from "${this.schema}"."outbox"`,
    );
    return {
      pending: Number(row?.pending ?? 0),
      parked: Number(row?.parked ?? 0),
      oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)),
    };
  }

  private backoffMs(attempts: number): number {
    return Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** Math.max(0, attempts - 1));
  }

  private async recordFailure(row: ClaimedRow, err: unknown): Promise<void> {
    const attempts = row.attempts + 1;
    const message = String((err as Error)?.message ?? err).slice(0, 1000);
    if (attempts >= this.maxAttempts) {
      this.logger.error(
        { err, eventId: row.id, subject: row.subject, attempts, schema: this.schema },
        'outbox row parked after repeated publish failures',
      );
      await this.table(
        (t) => `update ${t} set attempts = ?, parked_at = now(), last_error = ?, claimed_until = null where id = ?`,
        [attempts, message, row.id],
      );
      return;
    }
    const delay = this.backoffMs(attempts);
    this.logger.warn({ err, eventId: row.id, subject: row.subject, attempts, retryInMs: delay }, 'outbox publish failed');
    await this.table(
      (t) =>
        `update ${t} set attempts = ?, last_error = ?, claimed_until = null,
           next_attempt_at = now() + (? * interval '1 millisecond') where id = ?`,
      [attempts, message, delay, row.id],
    );
  }

  private schedule(): void {
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, this.pollMs);
    this.timer.unref();
  }

  private async claim(): Promise<ClaimedRow[]> {
    const table = `"${this.schema}"."outbox"`;
    const rows = await this.orm.em.getConnection().execute<ClaimedRow[]>(
      `update ${table} set claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
       where id in (select id from ${table}
                    where parked_at is null
                      and (claimed_until is null or claimed_until < now())
                      and (next_attempt_at is null or next_attempt_at <= now())
                    order by occurred_at limit ${BATCH} for update skip locked)
       returning id, subject, payload, headers, occurred_at, attempts`,
    );
    return rows.sort((a, b) => +new Date(a.occurred_at) - +new Date(b.occurred_at));
  }

  private async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.settle((t) => `delete from ${t} where id in (?)`, ids);
  }

  private async release(ids: string[]): Promise<void> {
    if (ids.length) await this.settle((t) => `update ${t} set claimed_until = null where id in (?)`, ids);
  }

  /**
   * Settles claimed rows, trying again on another connection: a pooled
   * connection the server dropped (a Postgres restart, pg_terminate_backend)
   * fails its next statement and leaves the pool, and a failed release would
   * leave the rows claimed for CLAIM_SECONDS.
   */
  private async settle(sql: (table: string) => string, ids: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.table(sql, [ids]);
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  private async table(sql: (table: string) => string, params: unknown[]): Promise<void> {
    await this.orm.em.getConnection().execute(sql(`"${this.schema}"."outbox"`), params);
  }
}

/**
 * Whether a committed unit of work wrote outbox rows (recordEvent creates them
 * as entities; a nested transaction's are merged into its parent's before the
 * parent commits).
 */
function wroteOutbox(uow: UnitOfWork): boolean {
  for (const entity of uow.getIdentityMap()) {
    // `__meta` sits on every managed entity's prototype (no run-time import of the ORM here, see outbox.ts).
    if ((entity as { __meta?: { className?: string } }).__meta?.className === 'OutboxMessage') return true;
  }
  return false;
}

/**
 * Puts parked outbox rows back in line (all of them, or the given ids): the
 * operator's replay after fixing the cause. Returns how many were replayed.
 */
export async function replayParkedOutbox(orm: MikroORM, schema: string, ids?: string[]): Promise<number> {
  if (ids && !ids.length) return 0;
  const where = ids ? 'parked_at is not null and id in (?)' : 'parked_at is not null';
  const rows = await orm.em
    .getConnection()
    .execute<Array<{ id: string }>>(
      `update "${schema}"."outbox" set parked_at = null, attempts = 0, next_attempt_at = null, claimed_until = null
       where ${where} returning id`,
      ids ? [ids] : [],
    );
  return rows.length;
}

/**
 * Failures that say the broker (not this row) is unavailable: the client has
 * not noticed the disconnect yet, the request timed out, or JetStream has no
 * responder. They never count against a row.
 */
function isBrokerUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | undefined;
  const text = `${String(e?.name ?? '')} ${String(e?.code ?? '')} ${String(e?.message ?? '')}`;
  // `jetstream is not enabled`: a restarted server answers before JetStream is up.
  return /timeout|timed out|disconnect|connection|closed|no responders|503|draining|reconnect|not enabled|BrokerUnavailable/i.test(
    text,
  );
}
