import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadTarget {
  name: string;
  method?: 'GET' | 'POST';
  url: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
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
}

/**
 * Drives one URL with autocannon in a separate process (so the load
 * generator does not share the server's event loop) and returns req/s and
 * latency percentiles.
 */
export function runLoad(target: LoadTarget, seconds: number, defaultConnections: number, warmup = false): Promise<LoadResult> {
  const connections = target.connections ?? defaultConnections;
  let args = ['node_modules/autocannon/autocannon.js', '-j', '-d', String(seconds), '-c', String(connections)];
  args.push('-m', target.method ?? 'GET');
  for (const [k, v] of Object.entries(target.headers ?? {})) args.push('-H', `${k}: ${v}`);
  if (target.body) args.push('-b', target.body);
  args.push(target.url);
  if (target.pool) {
    const pool = target.pool.splice(0, warmup ? Math.ceil(target.pool.length / 10) : target.pool.length);
    if (!pool.length) throw new Error(`${target.name}: the request pool is spent`);
    const file = join(tmpdir(), `bench-pool-${process.pid}-${Date.now()}.json`);
    const { url, method = 'GET', headers = {}, body } = target;
    writeFileSync(file, JSON.stringify({ url, method, headers, body, connections, pool }));
    args = ['tools/bench/pooled-load.cjs', file];
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
      });
    });
  });
}
