import type { Logger } from 'pino';
import type { Reservations } from '../domain/reservations/reservations';

/**
 * Gives back the stock of expired reservations every `intervalSeconds`.
 * Replicas may all run it: each sweep takes the reservations it locks with
 * SKIP LOCKED, so no two give back the same one.
 */
export function reservationSweep(reservations: Reservations, intervalSeconds: number, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(tick, intervalSeconds * 1000);
    timer.unref();
  };
  const tick = () => {
    running = reservations
      .sweepExpired()
      .then((expired) => {
        if (expired) logger.info({ expired }, 'expired reservations released');
      })
      .catch((err: unknown) => logger.warn({ err }, 'reservation sweep failed; retrying next interval'))
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
