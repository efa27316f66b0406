import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { intervalJob } from '../src';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function captured() {
  const lines: Array<{ msg: string; job?: string; count?: number }> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, sink) };
}

describe('intervalJob', () => {
  it('runs every interval, never two runs at once, and keeps going after a failed run', async () => {
    const { lines, logger } = captured();
    let runs = 0;
    let active = 0;
    let overlapped = false;
    const job = intervalJob(
      'test job',
      async () => {
        runs++;
        overlapped ||= active > 0;
        active++;
        await sleep(30); // longer than the interval: the next run waits for this one
        active--;
        if (runs === 2) throw new Error('database gone');
        return runs === 1 ? 3 : 0;
      },
      0.01,
      logger,
    );
    job.start(true);
    for (const deadline = Date.now() + 10_000; runs < 3 && Date.now() < deadline; ) await sleep(10);
    await job.stop();
    const after = runs;
    await sleep(60);
    expect(runs).toBe(after); // stopped: no more runs
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(overlapped).toBe(false);
    expect(lines).toContainEqual(expect.objectContaining({ job: 'test job', count: 3, msg: 'test job done' }));
    expect(lines).toContainEqual(expect.objectContaining({ job: 'test job', msg: 'test job failed; retrying next interval' }));
  });

  it('stop waits for the running task; 0 seconds is off; without atStart the first run waits an interval', async () => {
    const { logger } = captured();
    let finished = false;
    const job = intervalJob('slow', async () => (await sleep(50), (finished = true), 0), 0.01, logger);
    job.start(true);
    await job.stop();
    expect(finished).toBe(true);

    let offRuns = 0;
    const off = intervalJob('off', async () => ++offRuns, 0, logger);
    off.start(true);
    await sleep(30);
    await off.stop();
    expect(offRuns).toBe(0);

    let lateRuns = 0;
    const late = intervalJob('late', async () => ++lateRuns, 0.2, logger);
    late.start();
    await sleep(50);
    expect(lateRuns).toBe(0);
    await late.stop();
  });
});
