// Autocannon driver for routes whose requests must differ (run by load.ts in
// its own process): request i carries header set i of the pool, each used
// once, and the run ends when the pool is spent (e.g. one prepared cart per
// real placement, so nothing is measured as an idempotent replay).
'use strict';
const fs = require('node:fs');
const autocannon = require('autocannon');

const config = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let next = 0;
const instance = autocannon(
  {
    url: config.url,
    connections: Math.min(config.connections, config.pool.length),
    amount: config.pool.length,
    method: config.method,
    headers: config.headers,
    body: config.body,
    requests: [
      {
        setupRequest(request) {
          const extra = config.pool[next++ % config.pool.length];
          return { ...request, headers: { ...request.headers, ...extra } };
        },
      },
    ],
  },
  (err, result) => {
    if (err) {
      console.error(err);
      process.exit(1);
    }
    process.stdout.write(JSON.stringify({ ...result, requests: { ...result.requests, average: result.requests.total / result.duration } }));
  },
);
autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false, outputStream: process.stderr });
