import type { Logger } from 'pino';

/** Runs `task` every `intervalSeconds` (never overlapping); 0 turns it off. Like catalog's reservation sweep. */
export function intervalJob(name: string, task: () => Promise<number>, intervalSeconds: number, logger: Logger) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const schedule = (seconds: number) => {
    if (stopped || seconds <= 0) return;
    timer = setTimeout(tick, seconds * 1000);
    timer.unref();
  };
  const tick = () => {
    running = task()
      .then((n) => {
        if (n) logger.info({ job: name, count: n }, `${name} done`);
      })
      .catch((err: unknown) => logger.warn({ err, job: name }, `${name} failed; retrying next interval`))
      .finally(() => {
        running = undefined;
        schedule(intervalSeconds);
      });
  };
  return {
    /** `now`: run once right away (recovery on start), then every interval. */
    start: (now = false) => (now ? tick() : schedule(intervalSeconds)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
