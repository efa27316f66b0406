import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent, type InboxKey } from '@storefront/events';
import { activityLogged } from '@storefront/domain-events';
import {
  deleteEmailLog,
  findEmailLog,
  claimOnceKeys,
  insertEmailLogs,
  insertEmailLogsOnce,
  listEmailLogs,
  purgeEmailLogs,
} from '../../persistence/email-logs.repository';
import { optedOutOfOrderEmails, saveOrderEmailChoice } from '../../persistence/email-preferences.repository';
import { readSetting, writeSetting } from '../../persistence/settings.repository';
import { scrubText } from '../activity/pii';
import type { NotificationsDeps } from '../deps';
import { emailLogNotFound, notResendable } from '../errors';
import { renderTemplate } from './templates';
import {
  EMAIL_TYPES,
  isEmailType,
  type EmailLogEntry,
  type EmailLogQuery,
  type EmailLogSettings,
  type EmailType,
  type OutgoingEmail,
} from './types';

const SETTINGS_KEY = 'email_logs';

/** One email an event asks for: its template, recipient and variables. */
export interface EmailRequest {
  type: EmailType;
  to: string;
  vars: Record<string, string>;
  /** An email to a customer about their order: not sent when that customer turned `order_email` off. */
  orderEmailOf?: number;
  /** Sent once per key whatever asks again (an order's announcement): skipped when the key was sent or tried. */
  onceKey?: string;
}

/** Messages sent and their outcomes (errors[i] '' when message i went through). */
export interface Delivery {
  messages: readonly OutgoingEmail[];
  errors: readonly string[];
}
export const DEFAULT_EMAIL_LOG_SETTINGS: EmailLogSettings = { retentionDaysSent: 30, retentionDaysFailed: 90 };

/**
 * Sends the shop's emails and keeps the email log. A send is never lost: the
 * log entry holds the whole rendered message, `failed` with the server's
 * error when the send did not go through, and can be resent.
 */
export class Emails {
  constructor(private readonly deps: NotificationsDeps) {}

  /**
   * Logs what `sendOnce` delivered (one event's emails, some failed) in one
   * statement of `em`'s transaction. Nothing is rendered or sent here: no
   * SMTP exchange or site-settings read may hold a transaction open.
   */
  async logDelivery(em: EntityManager, delivered: Delivery): Promise<EmailLogEntry[]> {
    return this.log(em, delivered.messages, delivered.errors, 0);
  }

  /**
   * An event's emails, sent once per consumer without a transaction held
   * across the SMTP exchange: a redelivery the inbox already holds sends
   * nothing; otherwise the emails go out, then one statement records the
   * event in the inbox with their log entries. Null when that is all; when a
   * send failed, the delivery, to be logged with `sendAll` in the inbox
   * transaction (a failure is also an activity-log event, in the outbox).
   * Two deliveries of one event running at the same time (JetStream's redelivery
   * after its ack wait) could both send: at least once, as a crash between the
   * send and the record already allows.
   */
  async sendOnce(emails: readonly EmailRequest[], inbox: InboxKey): Promise<Delivery | null> {
    const keys = emails.flatMap((e) => (e.onceKey ? [e.onceKey] : []));
    // Once-keys are claimed before sending (by this event): a key another event holds was sent or is being sent.
    const { handled, mine } = await claimOnceKeys(this.deps.db.reader, inbox, keys);
    if (handled) return null;
    const delivery = await this.deliver(await this.render(emails.filter((e) => !e.onceKey || mine.has(e.onceKey))));
    if (delivery.errors.some(Boolean)) return delivery;
    // Also when nothing was due: the event is recorded, so a redelivery does nothing.
    await insertEmailLogsOnce(this.deps.db.reader, this.entries(delivery.messages, delivery.errors, 0), inbox);
    return null;
  }

  /** `emails` less the order emails of customers who turned them off (one statement, only when there are any). */
  async wanted(emails: readonly EmailRequest[]): Promise<EmailRequest[]> {
    const customers = [...new Set(emails.map((e) => e.orderEmailOf ?? 0).filter((id) => id > 0))];
    if (!customers.length) return [...emails];
    const optedOut = await optedOutOfOrderEmails(this.deps.db.reader, customers);
    return emails.filter((e) => !e.orderEmailOf || !optedOut.has(e.orderEmailOf));
  }

  /** A customer's order-email choice (customers.email_preferences_changed); idempotent, the newest wins. */
  saveOrderEmailChoice(customerId: number, orderEmail: boolean, changedAt: Date): Promise<void> {
    return saveOrderEmailChoice(this.deps.db.reader, customerId, orderEmail, changedAt);
  }

  private async render(emails: readonly EmailRequest[]): Promise<OutgoingEmail[]> {
    const site = await this.deps.site.read();
    return emails.map(({ type, to, vars }): OutgoingEmail => {
      const rendered = renderTemplate(this.deps.templates.load(type), {
        store_name: site.storeName,
        site_url: site.siteUrl,
        ...vars,
      });
      return { type, to, subject: rendered.subject, text: rendered.text, html: rendered.html };
    });
  }

  /** Sends each message in turn; errors[i] is '' when message i went through. */
  private async deliver(messages: readonly OutgoingEmail[]): Promise<Delivery> {
    const errors: string[] = [];
    for (const message of messages) errors.push(await this.trySend(message));
    return { messages, errors };
  }

  private entries(messages: readonly OutgoingEmail[], errors: readonly string[], resentFrom: number) {
    return messages.map((message, i) => ({
      type: message.type,
      to: message.to,
      subject: message.subject,
      body: message.text,
      html: message.html,
      status: errors[i] ? ('failed' as const) : ('sent' as const),
      error: errors[i]!,
      resentFrom,
      sentAt: errors[i] ? null : this.deps.now(),
    }));
  }

  /** Logs the outcomes in `em`'s transaction; each failure is also an activity-log event. */
  private async log(em: EntityManager, messages: readonly OutgoingEmail[], errors: readonly string[], resentFrom: number): Promise<EmailLogEntry[]> {
    const entries = await insertEmailLogs(em, this.entries(messages, errors, resentFrom));
    entries.forEach((entry, i) => {
      const error = errors[i];
      if (!error) return;
      recordEvent(em, activityLogged('notifications'), {
        status: 'error',
        source: 'notifications',
        message: `Email "${entry.type}" could not be sent.`,
        contextJson: JSON.stringify({ email_log_id: entry.id, type: entry.type, error: scrubText(error) }),
        customerId: 0,
        orderId: 0,
      });
    });
    return entries;
  }

  /** Sends one message; '' when the server accepted it, else its error (logged, never thrown). */
  private async trySend(message: OutgoingEmail): Promise<string> {
    try {
      await this.deps.mailer.send(message);
      return '';
    } catch (err) {
      const error = (err instanceof Error ? err.message : String(err)).slice(0, 2000) || 'Unknown mail error';
      this.deps.logger.warn({ type: message.type, err: scrubText(error) }, 'email send failed');
      return error;
    }
  }

  list(q: EmailLogQuery) {
    return listEmailLogs(this.deps.db.em(), q);
  }

  async get(id: number): Promise<EmailLogEntry> {
    const entry = await findEmailLog(this.deps.db.em(), id);
    if (!entry) throw emailLogNotFound();
    return entry;
  }

  async delete(id: number): Promise<EmailLogEntry> {
    const entry = await deleteEmailLog(this.deps.db.em(), id);
    if (!entry) throw emailLogNotFound();
    return entry;
  }

  /** Sends a logged email again, exactly as rendered then; the outcome is a new entry. */
  async resend(id: number): Promise<EmailLogEntry> {
    const original = await this.get(id);
    if (!isEmailType(original.type)) throw notResendable(original.type);
    const { messages, errors } = await this.deliver([
      { type: original.type, to: original.to, subject: original.subject, text: original.body, html: original.html },
    ]);
    const [entry] = await this.deps.db.em().transactional((em) => this.log(em, messages, errors, original.id));
    return entry!;
  }

  resendableTypes(): { type: string; label: string }[] {
    return Object.entries(EMAIL_TYPES).map(([type, label]) => ({ type, label }));
  }

  settings(): Promise<EmailLogSettings> {
    return readSetting(this.deps.db.em(), SETTINGS_KEY, DEFAULT_EMAIL_LOG_SETTINGS);
  }

  async updateSettings(settings: EmailLogSettings): Promise<EmailLogSettings> {
    await writeSetting(this.deps.db.em(), SETTINGS_KEY, settings);
    return settings;
  }

  /** Removes entries older than the retention settings (POST /email-logs/purge and the retention job). */
  async purge(): Promise<number> {
    const em = this.deps.db.em();
    const s = await readSetting(em, SETTINGS_KEY, DEFAULT_EMAIL_LOG_SETTINGS);
    return purgeEmailLogs(em, s.retentionDaysSent, s.retentionDaysFailed, this.deps.now());
  }
}
