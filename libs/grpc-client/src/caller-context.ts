import { Metadata } from '@grpc/grpc-js';
import { isValidIdempotencyKey } from '@storefront/errors';

/**
 * Who is calling and on behalf of which request. The gateway resolves it once
 * per request and sends it with every gRPC call as metadata; services trust it
 * (they are reachable only from inside the cluster).
 */
export interface CallerContext {
  /** 0 for a guest. */
  userId: number;
  login: string;
  roles: string[];
  capabilities: string[];
  requestId: string;
  /** Current cookie session, when the caller used one (lets "end other sessions" keep this one). */
  sessionId?: string;
  idempotencyKey?: string;
  clientIp?: string;
  /** W3C trace context of the originating request. */
  traceparent?: string;
}

export function anonymousCaller(requestId = '', clientIp?: string): CallerContext {
  return { userId: 0, login: '', roles: [], capabilities: [], requestId, clientIp };
}

const KEYS = {
  userId: 'shop-user-id',
  login: 'shop-user-login',
  roles: 'shop-roles',
  capabilities: 'shop-capabilities',
  requestId: 'x-request-id',
  sessionId: 'shop-session-id',
  idempotencyKey: 'idempotency-key',
  clientIp: 'shop-client-ip',
  traceparent: 'traceparent',
} as const;

export function callerToMetadata(caller: CallerContext, metadata = new Metadata()): Metadata {
  metadata.set(KEYS.userId, String(caller.userId));
  if (caller.login) metadata.set(KEYS.login, encodeURIComponent(caller.login));
  if (caller.roles.length) metadata.set(KEYS.roles, caller.roles.join(','));
  if (caller.capabilities.length) metadata.set(KEYS.capabilities, caller.capabilities.join(','));
  if (caller.requestId) metadata.set(KEYS.requestId, caller.requestId);
  if (caller.sessionId) metadata.set(KEYS.sessionId, caller.sessionId);
  // Only a key the contract allows travels (the keyed routes refuse others with a 400 first): gRPC
  // metadata throws on anything but printable ASCII, which would turn a stray header into a 500.
  if (caller.idempotencyKey && isValidIdempotencyKey(caller.idempotencyKey)) metadata.set(KEYS.idempotencyKey, caller.idempotencyKey);
  if (caller.clientIp) metadata.set(KEYS.clientIp, caller.clientIp);
  if (caller.traceparent) metadata.set(KEYS.traceparent, caller.traceparent);
  return metadata;
}

export function callerFromMetadata(metadata: Metadata): CallerContext {
  const get = (key: string) => {
    const value = metadata.get(key)[0];
    return typeof value === 'string' ? value : '';
  };
  const list = (key: string) => (get(key) ? get(key).split(',') : []);
  const userId = Number.parseInt(get(KEYS.userId), 10);
  return {
    userId: Number.isSafeInteger(userId) && userId > 0 ? userId : 0,
    login: decodeURIComponent(get(KEYS.login)),
    roles: list(KEYS.roles),
    capabilities: list(KEYS.capabilities),
    requestId: get(KEYS.requestId),
    sessionId: get(KEYS.sessionId) || undefined,
    idempotencyKey: get(KEYS.idempotencyKey) || undefined,
    clientIp: get(KEYS.clientIp) || undefined,
    traceparent: get(KEYS.traceparent) || undefined,
  };
}
