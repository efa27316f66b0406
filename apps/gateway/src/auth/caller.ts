import { createHmac, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError, unauthorized } from '@storefront/errors';
import { anonymousCaller, type CallerContext } from '@storefront/grpc-client';
import type { customers } from '@storefront/proto/customers';
import type { CustomersClients } from '../clients';
import { PrincipalCache } from './principal-cache';
import { requestTraceparent } from '../http/tracing';
import { Nonces } from './nonce';
import { SESSION_COOKIE, SessionCookies } from './session-cookie';
import { VerifiedSessions, type VerifiedSession } from './verified-sessions';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for (a guest when no valid credentials came with it). */
    caller: CallerContext;
    /** The cookie session's token, when the cookie is valid (with or without nonce). */
    sessionToken?: string;
  }
}

export interface CallerResolverOptions {
  clients: CustomersClients;
  cookies: SessionCookies;
  nonces: Nonces;
  cache: PrincipalCache;
  secret: string;
  /** Application passwords only over HTTPS (production). */
  requireHttpsForBasic: boolean;
}

/**
 * Resolves the caller of every request: HTTP Basic with an application
 * password, or the session cookie plus a valid `X-Platform-Nonce` (a cookie
 * without it is a guest). Cached principals make this free on the hot path.
 */
export function installCallerResolution(app: FastifyInstance, options: CallerResolverOptions): void {
  app.decorateRequest('caller', null as unknown as CallerContext);
  app.decorateRequest('sessionToken', undefined);
  const sessions = new VerifiedSessions(options.cookies, options.nonces);
  // A cached principal (the hot path) resolves synchronously: no promise, no microtask.
  app.addHook('onRequest', (request, _reply, done) => {
    request.caller = {
      ...anonymousCaller(request.id, request.ip),
      traceparent: requestTraceparent(request),
      idempotencyKey: headerValue(request, 'idempotency-key'),
    };
    const principal = resolvePrincipal(request, options, sessions);
    if (principal instanceof Promise) {
      principal.then((resolved) => {
        actAs(request, resolved);
        done();
      }, done);
      return;
    }
    actAs(request, principal);
    done();
  });
}

function actAs(request: FastifyRequest, principal: customers.Principal | undefined): void {
  if (!principal) return;
  request.caller = {
    ...request.caller,
    userId: principal.userId,
    login: principal.login,
    roles: principal.roles,
    capabilities: principal.capabilities,
    sessionId: request.sessionToken,
  };
}

type MaybePromise<T> = T | Promise<T>;

function resolvePrincipal(
  request: FastifyRequest,
  o: CallerResolverOptions,
  sessions: VerifiedSessions,
): MaybePromise<customers.Principal | undefined> {
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('basic ')) return basicPrincipal(request, authorization.slice(6), o);

  const session = sessions.verify(request.cookies?.[SESSION_COOKIE], headerValue(request, 'x-platform-nonce'));
  if (!session) return undefined;
  request.sessionToken = session.token;
  if (!session.nonceValid) return undefined;
  return sessionPrincipal(request, session, o);
}

function sessionPrincipal(
  request: FastifyRequest,
  session: VerifiedSession,
  o: CallerResolverOptions,
): MaybePromise<customers.Principal | undefined> {
  const key = `s:${session.sessionId}`;
  const cached = o.cache.get(key);
  if (cached) return cached;
  return fetchSessionPrincipal(request, session, key, o);
}

async function fetchSessionPrincipal(request: FastifyRequest, session: VerifiedSession, key: string, o: CallerResolverOptions) {
  try {
    const { principal } = await o.clients.auth.resolveSession({ sessionId: session.token }, request.caller);
    if (principal) o.cache.set(key, principal);
    return principal;
  } catch (err) {
    if (DomainError.is(err) && err.status === 401) return undefined; // ended or expired: a guest
    throw err;
  }
}

function basicPrincipal(
  request: FastifyRequest,
  encoded: string,
  o: CallerResolverOptions,
): MaybePromise<customers.Principal | undefined> {
  if (o.requireHttpsForBasic && request.protocol !== 'https') {
    throw unauthorized('platform_application_passwords_https_required', 'Application passwords require HTTPS.');
  }
  const decoded = Buffer.from(encoded.trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Made only when refused: an error captures a stack trace.
  const invalid = () =>
    unauthorized('platform_invalid_application_password', 'The provided password is an invalid application password.');
  if (colon <= 0) throw invalid();
  // Cache key is a keyed hash: the plain credentials never sit in memory longer than this call.
  const key = `b:${createHmac('sha256', o.secret).update(decoded).digest('hex')}`;
  const cached = o.cache.get(key);
  if (cached) return cached;
  return o.clients.auth
    .authenticateApplicationPassword({ identifier: decoded.slice(0, colon), password: decoded.slice(colon + 1) }, request.caller)
    .then(({ principal }) => {
      if (!principal) throw invalid();
      o.cache.set(key, principal);
      return principal;
    });
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value ? value : undefined;
}

/** Request ids: the caller's `X-Request-Id` when sane, else a fresh UUID. */
export function requestIdOf(headers: Record<string, unknown>): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
}
