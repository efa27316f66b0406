// Tracing (OpenTelemetry, exported over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT
// is set) and the trace scope every app shares. See docs/operations.md, "Traces".
export { runWithTraceparent, currentTraceparent, newTraceparent } from './trace-context';
export { startTracing, createTracing, traceparentOf, failSpan, SpanKind, type Tracing, type TracingEnv, type Span, type Attributes } from './tracing';
export { traceQueries } from './sql';
