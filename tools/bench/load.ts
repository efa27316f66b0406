import { spawn } from 'node:child_process';
import path from 'node:path';

export interface LoadTarget {
  name: string;
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Paths (with query) to rotate through, one per request, instead of the URL's own (many records, not one hot one). */
  paths?: string[];
  /**
   * Header sets used once each (one per request); the run ends when its share
   * is spent: the warm-up takes a tenth, the measured run the rest.
   */
  pool?: Record<string, string>[];
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Responses received in the measured window. */
  requests: number;
  /** Server-side CPU (this process: gateway and services, less idle background) per response, in µs; PG not included. */
  cpuPerRequestUs?: number;
  /** The work behind one response (work-counters.ts). */
  work?: string;
  /** Latency with one request at a time (`runLoad`'s `alone`): the route's own time, without queueing behind others. */
  aloneP50?: number;
  aloneP99?: number;
}

/**
 * Drives one URL (or a rotation of paths) with autocannon in a separate
 * process (so the load generator does not share the server's event loop) and
 * returns req/s and latency percentiles.
 */
export function runLoad(
  target: LoadTarget,
  seconds: number,
  defaultConnections: number,
  warmup = false,
  alone?: { ratePerSecond: number },
): Promise<LoadResult> {
  const options: Record<string, unknown> = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers ?? {},
    body: target.body,
    duration: seconds,
    connections: target.connections ?? defaultConnections,
    paths: target.paths,
    // One request at a time, so none waits behind another (at saturation, latency is mostly that
    // queue: connections / throughput), at a rate every route sustains.
    alone,
  };
  if (target.pool) {
    const share = alone ? Math.min(target.pool.length, Math.ceil(alone.ratePerSecond * seconds)) : warmup ? Math.ceil(target.pool.length / 10) : target.pool.length;
    const pool = target.pool.splice(0, share);
    if (!pool.length) throw new Error(`${target.name}: the request pool is spent`);
    options.pool = pool;
  }
  return new Promise((resolve, reject) => {
    // Options go through stdin: a request pool can outgrow one argv string.
    const child = spawn(process.execPath, [path.join(import.meta.dirname, 'autocannon-child.cjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify(options));
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out);
      resolve({
        name: target.name,
        rps: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.timeouts,
        non2xx: r.non2xx,
        requests: r.requests.total,
      });
    });
  });
}
