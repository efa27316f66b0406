import type { InboxKey } from '@storefront/events';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { common } from '@storefront/proto';
import {
  deleteActivityLogs,
  findActivityLog,
  insertActivityLogIfEnabled,
  insertActivityLogOnce,
  listActivityLogs,
  purgeActivityLogs,
} from '../../persistence/activity-logs.repository';
import { readSetting, writeSetting } from '../../persistence/settings.repository';
import type { NotificationsDeps } from '../deps';
import { logEntryNotFound } from '../errors';
import { parseContext, scrubText } from './pii';
import { LOG_STATUSES, type ActivityLogEntry, type ActivityLogQuery, type ActivityLogSettings, type LogStatus } from './types';

const SETTINGS_KEY = 'activity_logs';
export const DEFAULT_LOG_SETTINGS: ActivityLogSettings = { enabled: true, retentionDays: 30 };

/** The activity log (GET /logs): PII-free entries published by every service. */
export class ActivityLog {
  constructor(private readonly deps: NotificationsDeps) {}

  /** Records one published entry (inside the consumer's transaction); nothing when logging is off. */
  async record(em: EntityManager, entry: common.ActivityLogged, fallbackSource: string): Promise<void> {
    // Logging off (settings.enabled false, DEFAULT_LOG_SETTINGS when unset) is checked by the insert itself.
    await insertActivityLogIfEnabled(em, SETTINGS_KEY, toEntry(entry, fallbackSource));
  }

  /**
   * Records one published entry with no transaction: the statement that writes
   * it also records the event in the consumer's inbox (`inbox`), so a
   * redelivered event writes nothing. Nothing when logging is off.
   */
  async recordOnce(entry: common.ActivityLogged, fallbackSource: string, inbox: InboxKey): Promise<void> {
    await insertActivityLogOnce(this.deps.db.reader, SETTINGS_KEY, toEntry(entry, fallbackSource), inbox);
  }

  list(q: ActivityLogQuery): Promise<{ entries: ActivityLogEntry[]; total: number }> {
    return listActivityLogs(this.deps.db.em(), q);
  }

  async get(id: number): Promise<ActivityLogEntry> {
    const entry = await findActivityLog(this.deps.db.em(), id);
    if (!entry) throw logEntryNotFound();
    return entry;
  }

  delete(ids: number[]): Promise<number> {
    return deleteActivityLogs(this.deps.db.em(), ids);
  }

  settings(): Promise<ActivityLogSettings> {
    return readSetting(this.deps.db.em(), SETTINGS_KEY, DEFAULT_LOG_SETTINGS);
  }

  async updateSettings(settings: ActivityLogSettings): Promise<ActivityLogSettings> {
    await writeSetting(this.deps.db.em(), SETTINGS_KEY, settings);
    return settings;
  }

  /** Retention: removes entries older than retention_days (0 = keep forever). */
  async purge(): Promise<number> {
    const em = this.deps.db.em();
    const { retentionDays } = await readSetting(em, SETTINGS_KEY, DEFAULT_LOG_SETTINGS);
    return purgeActivityLogs(em, retentionDays, this.deps.now());
  }
}

/** A published entry as stored: a known status (else info), its source, PII scrubbed. */
function toEntry(entry: common.ActivityLogged, fallbackSource: string) {
  const status: LogStatus = (LOG_STATUSES as readonly string[]).includes(entry.status) ? (entry.status as LogStatus) : 'info';
  return {
    status,
    source: (entry.source || fallbackSource).slice(0, 50),
    message: scrubText(entry.message),
    context: parseContext(entry.contextJson),
    customerId: Number(entry.customerId) || 0,
    orderId: Number(entry.orderId) || 0,
  };
}
