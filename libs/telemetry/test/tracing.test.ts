import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { TEST_DATABASE_URL } from '@storefront/testing';
import { currentTraceparent, runWithTraceparent, SpanKind, startTracing, traceQueries, type Tracing } from '../src';
import { OtlpReceiver } from '../src/testing';

let receiver: OtlpReceiver;
let tracing: Tracing;

beforeAll(async () => {
  receiver = await OtlpReceiver.start();
  tracing = (await startTracing('probe', { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/` }))!;
});
afterAll(async () => {
  await tracing?.close();
  await receiver?.close();
});

const PARENT_TRACE = 'aa'.repeat(16);
const PARENT_SPAN = 'bb'.repeat(8);

describe('startTracing', () => {
  it('is off (undefined, nothing loaded) without an endpoint', async () => {
    expect(await startTracing('probe', {})).toBeUndefined();
    expect(await startTracing('probe', { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' })).toBeUndefined();
  });

  it('exports spans over OTLP/HTTP under the given traceparent, with the app as service.name', async () => {
    let inside: string | undefined;
    await tracing.run('work', SpanKind.INTERNAL, `00-${PARENT_TRACE}-${PARENT_SPAN}-01`, { step: 1 }, async () => {
      inside = currentTraceparent();
    });
    await expect(
      tracing.run('broken', SpanKind.INTERNAL, `00-${PARENT_TRACE}-${PARENT_SPAN}-01`, {}, async () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await tracing.flush();
    const [work, broken] = ['work', 'broken'].map((name) => receiver.spans.find((s) => s.name === name)!);
    expect(work).toMatchObject({ service: 'probe', traceId: PARENT_TRACE, parentSpanId: PARENT_SPAN, kind: 1, status: 0, attributes: { step: 1 } });
    // While it ran, the span's own traceparent was the current one (what SQL and recorded events continue).
    expect(inside).toBe(`00-${PARENT_TRACE}-${work.spanId}-01`);
    expect(broken.status).toBe(2);
  });

  it('follows an unsampled parent: nothing recorded, the flag travels on', async () => {
    const span = tracing.start('quiet', SpanKind.SERVER, `00-${PARENT_TRACE}-${PARENT_SPAN}-00`);
    expect(span.isRecording()).toBe(false);
    span.end();
  });
});

describe('traceQueries', () => {
  it('records statements run inside a trace, and none outside', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      traceQueries(tracing, 'postgres')(client);
      await client.query('select 1 as outside');
      await runWithTraceparent(`00-${PARENT_TRACE}-${PARENT_SPAN}-01`, async () => {
        await client.query('select $1::int as inside', [2]);
        await expect(client.query('select nope')).rejects.toThrow();
      });
      await tracing.flush();
      const sql = receiver.spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
      expect(sql.map((s) => [s.name, s.attributes['db.query.text'], s.parentSpanId, s.kind, s.status])).toEqual([
        ['SELECT', 'select $1::int as inside', PARENT_SPAN, 3, 0],
        ['SELECT', 'select nope', PARENT_SPAN, 3, 2],
      ]);
    } finally {
      await client.end();
    }
  });
});
