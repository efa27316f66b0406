import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Metadata, Server, ServerCredentials, status, type ServiceError } from '@grpc/grpc-js';
import { DomainError, unprocessable } from '@storefront/errors';
import { health } from '@storefront/proto';
import {
  bindClient,
  callerFromMetadata,
  callerToMetadata,
  fromServiceError,
  openChannel,
  toServiceError,
  type CallerContext,
  type Channel,
} from '../src';

describe('caller context metadata', () => {
  it('round-trips every field', () => {
    const caller: CallerContext = {
      userId: 7,
      login: 'zoë o\'brien',
      roles: ['administrator', 'shop_manager'],
      capabilities: ['read', 'manage_options'],
      requestId: 'r-1',
      sessionId: 'tok',
      idempotencyKey: 'idem-1',
      clientIp: '10.1.2.3',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    };
    expect(callerFromMetadata(callerToMetadata(caller))).toEqual(caller);
  });

  it('reads a guest from empty or garbage metadata', () => {
    const md = new Metadata();
    md.set('shop-user-id', '-4');
    expect(callerFromMetadata(md)).toMatchObject({ userId: 0, roles: [], capabilities: [] });
  });
});

describe('error mapping', () => {
  it('carries the spec code, status and data across gRPC', () => {
    const sent = toServiceError(unprocessable('shop_cart_invalid_price', 'Invalid price.', { price_id: 3 }));
    expect(sent.code).toBe(status.FAILED_PRECONDITION);
    const back = fromServiceError(sent as ServiceError, 'catalog');
    expect(back).toMatchObject({ code: 'shop_cart_invalid_price', status: 422, message: 'Invalid price.', data: { price_id: 3 } });
  });

  it('hides non-domain errors behind a generic 500', () => {
    const sent = toServiceError(new Error('relation "users" does not exist'));
    expect(sent.details).toBe('Internal server error.');
    expect(fromServiceError(sent as ServiceError, 'x')).toMatchObject({ code: 'shop_internal_error', status: 500 });
  });

  it('turns transport failures into 503 shop_service_unavailable', () => {
    const err = { code: status.UNAVAILABLE, details: 'connect ECONNREFUSED', metadata: new Metadata() } as ServiceError;
    expect(fromServiceError(err, 'catalog')).toMatchObject({ code: 'shop_service_unavailable', status: 503, data: { service: 'catalog' } });
  });
});

describe('promise client', () => {
  let server: Server;
  let channel: Channel;
  let seenCaller: CallerContext | undefined;

  beforeAll(async () => {
    server = new Server();
    // The shared health service: `check` answers, except for the service `hang` (exercises the deadline).
    server.addService(health.HealthService, {
      check: (call: { metadata: Metadata; request: health.HealthCheckRequest }, cb: (e: unknown, r?: unknown) => void) => {
        if (call.request.service === 'hang') return;
        seenCaller = callerFromMetadata(call.metadata);
        cb(null, health.HealthCheckResponse.fromPartial({ status: health.HealthCheckResponse_ServingStatus.SERVING }));
      },
    } as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    channel = openChannel('settings', `127.0.0.1:${port}`, 300);
  });
  afterAll(() => {
    channel.close();
    server.forceShutdown();
  });

  it('sends the caller as metadata and resolves the response', async () => {
    const client = bindClient(channel, health.HealthService);
    // The channel's 300 ms deadline is for the deadline test; the first call also connects, so give it room on a busy machine.
    const caller = { userId: 3, login: 'a', roles: [], capabilities: ['read'], requestId: 'q' };
    const res = await client.check({ service: '' }, caller, { deadlineMs: 10_000 });
    expect(res.status).toBe('SERVING');
    expect(seenCaller).toMatchObject({ userId: 3, login: 'a', capabilities: ['read'], requestId: 'q' });
  });

  it('gives up at the deadline with 503', async () => {
    const client = bindClient(channel, health.HealthService);
    const started = Date.now();
    const err = await client.check({ service: 'hang' }, { userId: 0, login: '', roles: [], capabilities: [], requestId: '' }).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ status: 503 });
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
