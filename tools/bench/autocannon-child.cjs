'use strict';
// Runs one autocannon measurement in its own process (so the load generator
// does not share the server's event loop) and prints autocannon's JSON result.
// argv[2]: JSON options; `paths` (optional) rotates the request path over the
// list, one path per request across all connections, so a route is measured
// over many records instead of one hot one.
const autocannon = require('autocannon');

const { paths, ...options } = JSON.parse(process.argv[2]);
if (paths?.length) {
  let next = 0;
  options.requests = [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }];
}
autocannon(options, (err, result) => {
  if (err) {
    console.error(err);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(result));
});
