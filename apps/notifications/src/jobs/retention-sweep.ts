import type { Logger } from 'pino';
import type { NotificationsDomain } from '../domain';

/** Applies the email-log and activity-log retention every `intervalSeconds` (0 = off). */
export function retentionSweep(domain: NotificationsDomain, intervalSeconds: number, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalSeconds * 1000);
    timer.unref();
  };
  const tick = () => {
    running = Promise.all([domain.emails.purge(), domain.activity.purge()])
      .then(([emails, logs]) => {
        if (emails || logs) logger.info({ emails, logs }, 'old log entries purged');
      })
      .catch((err: unknown) => logger.warn({ err }, 'retention sweep failed; retrying next interval'))
      .finally(() => {
        running = undefined;
        schedule();
      });
  };

  return {
    /** Runs once at start (catching up after downtime), then every interval. */
    start: () => void (intervalSeconds > 0 && tick()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
