import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { forbidden } from '@storefront/errors';
import type { customers } from '@storefront/proto/customers';
import { baseUrl, requestOrigin } from '../http/links';
import { clearSessionCookie, setSessionCookie } from '../http/cookies';
import { documented, errorResponses } from '../http/responses';
import type { GatewayContext, RouteModule } from '../context';

const doc = documented('customers');

const LoginResult = Type.Object(
  { message: Type.String(), redirect_url: Type.String({ description: 'Where to go next (same site).' }) },
  { title: 'LoginResult' },
);
const RegisterResult = Type.Object(
  {
    message: Type.String(),
    redirect_url: Type.String(),
    user: Type.Object({ id: Type.Integer(), email: Type.String(), login: Type.String() }),
  },
  { title: 'RegisterResult' },
);
const ForgotResult = Type.Object({ message: Type.String() }, { title: 'PasswordResetRequested' });
const ResetResult = Type.Object({ message: Type.String(), redirect_url: Type.String() }, { title: 'PasswordResetDone' });

const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 200, description: 'Username or email address.' }),
    password: Type.String({ minLength: 1, maxLength: 4096 }),
    remember: Type.Boolean({ default: false }),
    redirect_to: Type.String({ default: '', maxLength: 2048, description: 'Where to go after login (same site only).' }),
  },
  { additionalProperties: false },
);

const RegisterBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 100 }),
    password: Type.String({ minLength: 1, maxLength: 4096 }),
    first_name: Type.String({ default: '', maxLength: 100 }),
    last_name: Type.String({ default: '', maxLength: 100 }),
    auto_login: Type.Boolean({ default: true }),
  },
  { additionalProperties: false },
);

const ForgotBody = Type.Object({ email: Type.String({ format: 'email', maxLength: 100 }) }, { additionalProperties: false });

const ResetBody = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 200 }),
    login: Type.String({ minLength: 1, maxLength: 200 }),
    password: Type.String({ minLength: 1, maxLength: 4096 }),
  },
  { additionalProperties: false },
);

/** Storefront login, registration and password reset (spec 4.13). */
export const authRoutes: RouteModule = (app, ctx) => {
  const { auth } = ctx.clients.customers;
  const config = { access: 'public' as const };

  app.post(
    '/auth/login',
    {
      config,
      schema: {
        ...doc(
          'logIn',
          'Log in (sets the session cookie and returns X-Platform-Nonce)',
          { 200: LoginResult, ...errorResponses(401, 403, 429) },
        ),
        body: LoginBody,
      },
    },
    async (request, reply) => {
    clearSessionCookie(request, reply); // any stale auth cookie goes first, whatever the outcome
    assertSameOrigin(request);
    const b = request.body;
    const result = await auth.login(
      { identifier: b.username, password: b.password, remember: b.remember, redirectTo: b.redirect_to },
      request.caller,
    );
    startSession(ctx, request, reply, result.session!);
    return { message: 'You are now logged in.', redirect_url: result.redirectUrl };
  });

  app.post(
    '/auth/register',
    {
      config,
      schema: {
        ...doc('registerCustomer', 'Register a customer account', { 200: RegisterResult, ...errorResponses(403, 409, 422, 429) }),
        body: RegisterBody,
      },
    },
    async (request, reply) => {
    clearSessionCookie(request, reply);
    const b = request.body;
    if (b.auto_login) assertSameOrigin(request);
    const result = await auth.register(
      { email: b.email, password: b.password, firstName: b.first_name, lastName: b.last_name, autoLogin: b.auto_login },
      request.caller,
    );
    if (result.session) startSession(ctx, request, reply, result.session);
    const p = result.principal!;
    return {
      message: 'Your account was created.',
      redirect_url: result.redirectUrl,
      user: { id: p.userId, email: p.email, login: p.login },
    };
  });

  app.post(
    '/auth/forgot-password',
    {
      config,
      schema: { ...doc('requestPasswordReset', 'Request a password reset email', { 200: ForgotResult, ...errorResponses(429) }), body: ForgotBody },
    },
    async (request) => {
    await auth.requestPasswordReset({ email: request.body.email }, request.caller);
    return { message: 'If an account exists for that email address, a password reset link has been sent to it.' };
  });

  app.post(
    '/auth/reset-password',
    {
      config,
      schema: { ...doc('resetPassword', 'Set a new password with a reset key', { 200: ResetResult, ...errorResponses(410, 422, 429) }), body: ResetBody },
    },
    async (request) => {
    const b = request.body;
    const result = await auth.resetPassword({ key: b.key, login: b.login, password: b.password }, request.caller);
    return { message: 'Your password has been reset. You can now log in.', redirect_url: result.redirectUrl };
  });
};

/** Sets the session cookie and hands the page its REST nonce (header `X-Platform-Nonce`). */
export function startSession(
  ctx: GatewayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  session: customers.Session,
): void {
  const expiresAt = session.expiresAt ?? new Date(Date.now() + 2 * 24 * 3600 * 1000);
  setSessionCookie(request, reply, ctx.cookies.encode(session.id, expiresAt), expiresAt, session.remember);
  reply.header('X-Platform-Nonce', ctx.nonces.issue(session.id));
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** A cookie session is only established same-origin: a cross-site Origin is refused. */
function assertSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  // Same origin: the store's configured site, or the origin the browser addressed.
  if (origin && origin !== originOf(baseUrl(request)) && origin !== requestOrigin(request)) {
    throw forbidden('shop_auth_cross_origin', 'Logging in is only possible from the store itself.');
  }
}
