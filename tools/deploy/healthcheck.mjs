// The image's HEALTHCHECK (and compose's): exit 0 when the app can serve, 1 otherwise. No curl in the
// image and no npm package needed: node's own http / http2.
//   gateway: GET /readyz on PORT (200 while it can serve; one backing service down keeps it ready).
//   services: grpc.health.v1.Health/Check of the default service ('' = readiness, follows the database)
//   on GRPC_PORT, spoken directly over HTTP/2.
// build-image.mjs fixes KIND per app; HEALTHCHECK_KIND selects it when the file runs from the repository.
import http from 'node:http';
import http2 from 'node:http2';

const KIND = process.env.HEALTHCHECK_KIND ?? 'grpc';
const TIMEOUT_MS = 2500;
const fail = (why) => {
  console.error(`unhealthy: ${why}`);
  process.exit(1);
};
setTimeout(() => fail('timed out'), TIMEOUT_MS).unref();

if (KIND === 'http') {
  const port = Number(process.env.PORT ?? 8080);
  http
    .get({ host: '127.0.0.1', port, path: '/readyz', timeout: TIMEOUT_MS }, (res) => {
      res.resume();
      if (res.statusCode === 200) process.exit(0);
      fail(`/readyz answered ${res.statusCode}`);
    })
    .on('error', (err) => fail(err.message));
} else {
  const port = Number(process.env.GRPC_PORT ?? 50051);
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on('error', (err) => fail(err.message));
  const call = session.request({
    ':method': 'POST',
    ':path': '/grpc.health.v1.Health/Check',
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  const chunks = [];
  let grpcStatus;
  call.on('data', (chunk) => chunks.push(chunk));
  call.on('trailers', (trailers) => (grpcStatus = trailers['grpc-status']));
  call.on('response', (headers) => (grpcStatus ??= headers['grpc-status']));
  call.on('error', (err) => fail(err.message));
  call.on('end', () => {
    session.close();
    if (grpcStatus !== undefined && String(grpcStatus) !== '0') fail(`grpc-status ${grpcStatus}`);
    // One length-prefixed message: HealthCheckResponse { status = 1 (SERVING) } is the bytes 08 01.
    const body = Buffer.concat(chunks).subarray(5);
    if (body.length >= 2 && body[0] === 0x08 && body[1] === 0x01) process.exit(0);
    fail(`not SERVING (${body.toString('hex') || 'empty'})`);
  });
  // An empty HealthCheckRequest (service '') in one uncompressed frame.
  call.end(Buffer.from([0, 0, 0, 0, 0]));
}
