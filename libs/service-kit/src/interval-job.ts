import type { Logger } from 'pino';

export interface IntervalJob {
  /** `atStart`: run once right away (catching up after downtime), then every interval. */
  start(atStart?: boolean): void;
  /** Cancels the next run and waits for a running one. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalSeconds`, never overlapping itself; 0 turns it
 * off. A failed run is logged and tried again at the next interval (a lost
 * database or peer must not stop the job). `task` returns how much it did:
 * a run that did something is logged at info.
 */
export function intervalJob(name: string, task: () => Promise<number>, intervalSeconds: number, logger: Logger): IntervalJob {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped || intervalSeconds <= 0) return;
    timer = setTimeout(tick, intervalSeconds * 1000);
    timer.unref();
  };
  const tick = () => {
    running = task()
      .then((count) => {
        if (count) logger.info({ job: name, count }, `${name} done`);
      })
      .catch((err: unknown) => logger.warn({ err, job: name }, `${name} failed; retrying next interval`))
      .finally(() => {
        running = undefined;
        schedule();
      });
  };
  return {
    start: (atStart = false) => (atStart && intervalSeconds > 0 ? tick() : schedule()),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
