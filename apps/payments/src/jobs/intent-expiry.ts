import type { Logger } from 'pino';
import type { ActionStep } from '../domain/test-card/action-step';

/**
 * Fails payment intents left unconfirmed past their expiry every
 * `intervalSeconds` and records the failure at orders (which releases the
 * order's stock through order_failed). Replicas may all run it: each sweep
 * claims intents with SKIP LOCKED.
 */
export function intentExpirySweep(actionStep: ActionStep, intervalSeconds: number, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalSeconds * 1000);
    timer.unref();
  };
  const tick = () => {
    running = actionStep
      .sweepExpired()
      .then((expired) => {
        if (expired) logger.info({ expired }, 'expired payment intents failed');
      })
      .catch((err: unknown) => logger.warn({ err }, 'intent expiry sweep failed; retrying next interval'))
      .finally(() => {
        running = undefined;
        schedule();
      });
  };

  return {
    start: () => void (intervalSeconds > 0 && schedule()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
