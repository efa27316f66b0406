import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  grpcLatency: Histogram<'method' | 'code'>;
  /** Requests served over HTTP (the gateway), by method, route pattern and status. */
  httpLatency: Histogram<'method' | 'route' | 'code'>;
  /** Serves `/metrics` on `port` (0 = any free port); resolves to the bound port. */
  serve(port: number): Promise<number>;
  close(): Promise<void>;
}

export function createMetrics(service: string): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const grpcLatency = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Duration of unary gRPC calls handled, by method and status code',
    labelNames: ['method', 'code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const httpLatency = new Histogram({
    name: 'http_server_request_duration_seconds',
    help: 'Duration of HTTP requests served, by method, route pattern and status code',
    labelNames: ['method', 'route', 'code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  let server: Server | undefined;
  return {
    registry,
    grpcLatency,
    httpLatency,
    serve(port) {
      server = createServer((req, res) => {
        if (req.url !== '/metrics') {
          res.writeHead(404).end();
          return;
        }
        registry.metrics().then(
          (body) => res.writeHead(200, { 'content-type': registry.contentType }).end(body),
          () => res.writeHead(500).end(),
        );
      });
      return new Promise((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, () => resolve((server!.address() as { port: number }).port));
      });
    },
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
