'use strict';
// Runs one autocannon measurement in its own process (so the load generator
// does not share the server's event loop) and prints autocannon's JSON result.
// stdin: JSON options.
//   `alone: { ratePerSecond }` measures one request at a time instead (below).
//   `paths` rotates the request path over the list, one path per request
//   across all connections, so a route is measured over many records instead
//   of one hot one.
//   `pool` gives request i header set i, each used once; the run ends when the
//   pool is spent (e.g. one prepared cart per real placement, so nothing is
//   measured as an idempotent replay).
const autocannon = require('autocannon');

let input = '';
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', () => {
  const { paths, pool, alone, ...options } = JSON.parse(input);
  if (alone) return measureAlone(options, alone.ratePerSecond, paths, pool);
  if (paths?.length) {
    let next = 0;
    options.requests = [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }];
  }
  if (pool?.length) {
    let next = 0;
    delete options.duration;
    options.amount = pool.length;
    options.connections = Math.min(options.connections, pool.length);
    options.requests = [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, ...pool[next++ % pool.length] } }) }];
  }
  autocannon(options, (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    // With `amount`, autocannon's average is per sampled second; report the whole run's rate.
    if (pool?.length) result.requests.average = result.requests.total / result.duration;
    process.stdout.write(JSON.stringify(result));
  });
});

/**
 * One request at a time over one kept-alive connection, at most `rate` a
 * second, for `duration` seconds (or once per pool entry): each response's own
 * time, to the microsecond (autocannon's histogram counts whole milliseconds,
 * too coarse for a 1 ms reference). Prints autocannon's result shape.
 */
async function measureAlone(options, rate, paths, pool) {
  const http = require('node:http');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(options.url);
  const count = pool?.length ? pool.length : Math.ceil(rate * options.duration);
  const times = [];
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    if (performance.now() < due) await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    const headers = { ...options.headers, ...(pool?.[i] ?? {}) };
    if (options.body) headers['content-length'] = Buffer.byteLength(options.body);
    const t0 = performance.now();
    try {
      const status = await new Promise((resolve, reject) => {
        const req = http.request(
          { agent, host: url.hostname, port: url.port, method: options.method, path: paths?.length ? paths[i % paths.length] : url.pathname + url.search, headers },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(options.body);
      });
      if (status >= 200 && status < 300) times.push(performance.now() - t0);
      else non2xx++;
    } catch {
      errors++;
    }
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q) => (times.length ? times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] : 0);
  const duration = (performance.now() - started) / 1000;
  process.stdout.write(
    JSON.stringify({
      requests: { average: times.length / duration, total: times.length + non2xx },
      latency: { p50: Number(at(0.5).toFixed(2)), p99: Number(at(0.99).toFixed(2)) },
      errors,
      timeouts: 0,
      non2xx,
    }),
  );
}
