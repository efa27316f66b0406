'use strict';
// Runs one autocannon measurement in its own process (so the load generator
// does not share the server's event loop) and prints autocannon's JSON result.
// stdin: JSON options.
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
  const { paths, pool, ...options } = JSON.parse(input);
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
