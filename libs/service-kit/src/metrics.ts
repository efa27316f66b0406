import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface Metrics {
  registry: Registry;
  grpcLatency: Histogram<'method' | 'code'>;
  /** Requests served over HTTP (the gateway), by method, route pattern and status. */
  httpLatency: Histogram<'method' | 'route' | 'code'>;
  /**
   * Gauges read at every scrape: `dependency_up{dependency}` (1/0, e.g. the
   * event broker, which does not affect readiness), `outbox_pending_events`,
   * `outbox_parked_events` and `outbox_oldest_event_age_seconds`.
   */
  observeDependencies(details: () => Record<string, boolean>, outbox: () => Promise<{ pending: number; parked: number; oldestAgeSeconds: number }>): void;
  /**
   * Counts an event the outbox relay published (`events_published_total{event}`:
   * the business counters, e.g. `event="order_placed"`, counted once per committed
   * fact) and its delay from recording to the broker's ack.
   */
  eventPublished(event: { type: string; delaySeconds: number }): void;
  /**
   * Gauges read at every scrape, per durable consumer: messages the broker
   * still holds for it (`events_consumer_pending_messages`, the lag) and
   * events it parked (`events_parked_messages`).
   */
  observeConsumers(pending: () => Promise<Record<string, number>>, parked: () => Promise<Record<string, number>>): void;
  /** A service's own counter (business figures), registered once on this app's registry. */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L>;
  /** Serves `/metrics` and `/livez` on `port` (0 = any free port); resolves to the bound port. */
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
  const published = new Counter({
    name: 'events_published_total',
    help: 'Events published from the outbox (broker acknowledged), by event type',
    labelNames: ['event'] as const,
    registers: [registry],
  });
  const publishDelay = new Histogram({
    name: 'outbox_publish_delay_seconds',
    help: 'Time from recording an event to the broker acknowledging it',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  let server: Server | undefined;
  return {
    registry,
    grpcLatency,
    httpLatency,
    eventPublished(event) {
      published.inc({ event: event.type });
      publishDelay.observe(event.delaySeconds);
    },
    observeConsumers(pending, parked) {
      const perConsumer = (name: string, help: string, read: () => Promise<Record<string, number>>) =>
        new Gauge({
          name,
          help,
          labelNames: ['consumer'] as const,
          registers: [registry],
          async collect() {
            // A broker or database outage leaves the last values.
            const values = await read().catch(() => undefined);
            for (const [consumer, value] of Object.entries(values ?? {})) this.set({ consumer }, value);
          },
        });
      perConsumer('events_consumer_pending_messages', 'Messages not yet acknowledged by a durable consumer (its lag)', pending);
      perConsumer('events_parked_messages', 'Events a consumer parked after its delivery limit (parked_event)', parked);
    },
    counter(name, help, labelNames) {
      return new Counter({ name, help, labelNames, registers: [registry] });
    },
    observeDependencies(details, outbox) {
      new Gauge({
        name: 'dependency_up',
        help: 'Whether a dependency answered its last health check (1) or not (0)',
        labelNames: ['dependency'] as const,
        registers: [registry],
        collect() {
          for (const [name, up] of Object.entries(details())) this.set({ dependency: name }, up ? 1 : 0);
        },
      });
      let last: Promise<{ pending: number; parked: number; oldestAgeSeconds: number }> | undefined;
      // One query per scrape for the three gauges; a database outage leaves the last values.
      const read = () => (last ??= outbox().finally(() => setTimeout(() => (last = undefined), 500).unref()));
      const gauge = (name: string, help: string, pick: (s: { pending: number; parked: number; oldestAgeSeconds: number }) => number) =>
        new Gauge({
          name,
          help,
          registers: [registry],
          async collect() {
            const stats = await read().catch(() => undefined);
            if (stats) this.set(pick(stats));
          },
        });
      gauge('outbox_pending_events', 'Events recorded but not yet published', (s) => s.pending);
      gauge('outbox_parked_events', 'Outbox rows parked after repeated publish failures', (s) => s.parked);
      gauge('outbox_oldest_event_age_seconds', 'Age of the oldest unpublished outbox event', (s) => s.oldestAgeSeconds);
    },
    serve(port) {
      server = createServer((req, res) => {
        // Liveness for HTTP probes: answers while the event loop does; depends on nothing else.
        if (req.url === '/livez') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        }
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

