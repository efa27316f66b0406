import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { customers } from '@storefront/proto/customers';
import { silentLogger, waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

let stack: Platform;
let listener: EventTransport;
const resetRequests: customers.PasswordResetRequested[] = [];
const eventTypes: string[] = [];

beforeAll(async () => {
  stack = await startStack({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '8' });
  const env = stack.services[0].config;
  listener = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    name: 'auth-test',
    logger: silentLogger(),
  });
  await listener.consume('auth_test', listener.subjectFor('customers.>'), async (m) => {
    eventTypes.push(m.headers['Shop-Event-Type']);
    if (m.headers['Shop-Event-Type'] === CustomerEvents.passwordResetRequested.type) {
      resetRequests.push(CustomerEvents.passwordResetRequested.codec.decode(m.data));
    }
  });
});
afterAll(async () => {
  await listener?.close();
  await stack?.stop();
});

const client = () => new ShopClient(stack.url);

describe('POST /auth/login', () => {
  it('sets an HttpOnly SameSite cookie and returns the nonce header', async () => {
    const c = client();
    const res = await c.post('/shop/v1/auth/login', { username: ADMIN.login, password: ADMIN.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), redirect_url: 'http://127.0.0.1:8080/admin/' });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('shop_session=') && !c.includes('1970'));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(res.headers.get('x-platform-nonce')).toMatch(/^[0-9a-f]{12}$/);
    expect((await c.get('/shop/v1/me')).body.username).toBe(ADMIN.login);
  });

  it('accepts the email as username and a same-site redirect_to', async () => {
    const res = await client().post('/shop/v1/auth/login', {
      username: ADMIN.email,
      password: ADMIN.password,
      redirect_to: '/my-account/orders/',
    });
    expect(res.body.redirect_url).toBe('http://127.0.0.1:8080/my-account/orders/');
    const offsite = await client().post('/shop/v1/auth/login', {
      username: ADMIN.login,
      password: ADMIN.password,
      redirect_to: 'https://evil.example/',
    });
    expect(offsite.body.redirect_url).toBe('http://127.0.0.1:8080/admin/');
  });

  it('refuses bad credentials with 401 shop_auth_failed and clears a stale cookie', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    expect(c.cookie('shop_session')).toBeDefined();
    const res = await c.post('/shop/v1/auth/login', { username: ADMIN.login, password: 'wrong-password' });
    expectError(res, 401, 'shop_auth_failed');
    expect(res.headers.getSetCookie().some((h) => h.startsWith('shop_session=;'))).toBe(true);
    expect(c.cookie('shop_session')).toBeUndefined();
  });

  it('validates the body', async () => {
    expectError(await client().post('/shop/v1/auth/login', { password: 'x' }), 400, 'rest_missing_callback_param');
    expectError(await client().post('/shop/v1/auth/login', { username: 5, password: 'x' }), 400, 'rest_invalid_param');
  });

  it('refuses a cross-origin login', async () => {
    const res = await client().post(
      '/shop/v1/auth/login',
      { username: ADMIN.login, password: ADMIN.password },
      { headers: { origin: 'https://elsewhere.example' } },
    );
    expectError(res, 403, 'shop_auth_cross_origin');
  });

  it('rate limits failures per account with 429 and Retry-After', async () => {
    await client().post('/shop/v1/auth/register', { email: 'limited@example.com', password: 'password-1' });
    for (let i = 0; i < 3; i++) {
      expectError(await client().post('/shop/v1/auth/login', { username: 'limited', password: 'nope' }), 401, 'shop_auth_failed');
    }
    const res = await client().post('/shop/v1/auth/login', { username: 'limited', password: 'password-1' });
    expectError(res, 429, 'shop_rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /auth/register', () => {
  it('creates a shop_customer named after the email, logs in, publishes customer_created', async () => {
    const c = client();
    const res = await c.post('/shop/v1/auth/register', {
      email: 'maria@example.com',
      password: 'password-1',
      first_name: 'Maria',
      last_name: 'Lopez',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: expect.any(String),
      redirect_url: 'http://127.0.0.1:8080/my-account/',
      user: { id: expect.any(Number), email: 'maria@example.com', login: 'maria' },
    });
    expect(res.headers.get('x-platform-nonce')).toBeTruthy();
    const me = await c.get('/shop/v1/me');
    expect(me.body).toMatchObject({ username: 'maria', first_name: 'Maria', last_name: 'Lopez' });
    await waitFor(() => eventTypes.includes(CustomerEvents.customerCreated.type));
  });

  it('deduplicates usernames with a numeric suffix and honours auto_login=false', async () => {
    const res = await client().post('/shop/v1/auth/register', {
      email: 'maria@example.org',
      password: 'password-1',
      auto_login: false,
    });
    expect(res.body.user.login).toBe('maria1');
    expect(res.headers.get('x-platform-nonce')).toBeNull();
  });

  it('rejects a taken email (409), a short password (400) and a bad email (400)', async () => {
    expectError(
      await client().post('/shop/v1/auth/register', { email: 'MARIA@example.com', password: 'password-1' }),
      409,
      'shop_register_email_taken',
    );
    const short = await client().post('/shop/v1/auth/register', { email: 'short@example.com', password: 'short' });
    expectError(short, 400, 'rest_invalid_param');
    expect(short.body.data.params).toHaveProperty('password');
    expectError(await client().post('/shop/v1/auth/register', { email: 'not-an-email', password: 'password-1' }), 400, 'rest_invalid_param');
  });

  it('is closed when users_can_register is off (403)', async () => {
    const admin = client();
    await admin.login(ADMIN.login, ADMIN.password);
    expect((await admin.patch('/platform/v1/settings', { users_can_register: false })).body.users_can_register).toBe(false);
    expectError(
      await client().post('/shop/v1/auth/register', { email: 'closed@example.com', password: 'password-1' }),
      403,
      'shop_registration_closed',
    );
    await admin.patch('/platform/v1/settings', { users_can_register: true });
  });

  it('platform settings refuse a currency outside ISO 4217 and a logo that is not a web address (400 naming each)', async () => {
    const admin = client();
    await admin.login(ADMIN.login, ADMIN.password);
    for (const [field, value] of [['currency', 'ZZZ'], ['logo_url', 'javascript:alert(1)']]) {
      const res = await admin.patch('/platform/v1/settings', { [field]: value });
      expectError(res, 400, 'rest_invalid_param');
      expect(res.body.data.params).toHaveProperty(field);
    }
    expect((await admin.get('/platform/v1/settings')).body).toMatchObject({ currency: 'USD' });
    expect((await admin.patch('/platform/v1/settings', { logo_url: 'https://cdn.example.com/logo.png' })).status).toBe(200);
    expect((await admin.patch('/platform/v1/settings', { logo_url: '' })).status).toBe(200);
  });
});

describe('password reset', () => {
  const generic = async (email: string) => (await client().post('/shop/v1/auth/forgot-password', { email })).body;

  it('answers the same whether or not the account exists', async () => {
    await client().post('/shop/v1/auth/register', { email: 'reset@example.com', password: 'password-1', auto_login: false });
    const known = await generic('reset@example.com');
    const unknown = await generic('nobody@example.com');
    expect(known).toEqual(unknown);
    expect(known).toEqual({ message: expect.any(String) });
  });

  it('resets with a single-use key; a used or wrong key is 410 shop_reset_expired', async () => {
    await waitFor(() => resetRequests.find((r) => r.email === 'reset@example.com'));
    const request = resetRequests.find((r) => r.email === 'reset@example.com')!;
    const url = new URL(request.resetUrl);
    expect(url.searchParams.get('key')).toBe(request.key);
    expect(url.searchParams.get('login')).toBe('reset');

    expectError(
      await client().post('/shop/v1/auth/reset-password', { key: 'wrong-key', login: 'reset', password: 'new-password-1' }),
      410,
      'shop_reset_expired',
    );
    const ok = await client().post('/shop/v1/auth/reset-password', { key: request.key, login: 'reset', password: 'new-password-1' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: expect.any(String), redirect_url: expect.stringContaining('/my-account/') });
    expectError(
      await client().post('/shop/v1/auth/reset-password', { key: request.key, login: 'reset', password: 'new-password-2' }),
      410,
      'shop_reset_expired',
    );
    expect((await client().post('/shop/v1/auth/login', { username: 'reset', password: 'new-password-1' })).status).toBe(200);
    await waitFor(() => eventTypes.includes(CustomerEvents.passwordResetCompleted.type));
  });
});

describe('cookie, nonce and logout', () => {
  it('treats a cookie without a valid nonce as logged out', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const nonce = c.nonce;
    c.nonce = undefined;
    expectError(await c.get('/shop/v1/me'), 401, 'shop_rest_not_logged_in');
    expectError(await c.get('/shop/v1/me', { headers: { 'x-platform-nonce': 'deadbeef0000' } }), 401, 'shop_rest_not_logged_in');
    c.nonce = nonce;
    expect((await c.get('/shop/v1/me')).status).toBe(200);
  });

  it('hands out the nonce for the cookie session', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const res = await c.get('/platform/v1/nonce', { headers: { 'x-platform-nonce': '' } });
    expect(res.body).toEqual({ nonce: c.nonce });
    expectError(await client().get('/platform/v1/nonce'), 401, 'rest_not_logged_in');
  });

  it('rejects a forged cookie', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const forged = await client().get('/shop/v1/me', {
      headers: { cookie: `shop_session=${c.cookie('shop_session')!.replace(/.$/, 'x')}`, 'x-platform-nonce': c.nonce! },
    });
    expectError(forged, 401, 'shop_rest_not_logged_in');
  });

  it('logs out: the session ends everywhere', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const cookie = c.cookie('shop_session')!;
    const nonce = c.nonce!;
    expect((await c.post('/platform/v1/logout')).body).toEqual({ logged_out: true });
    const replay = await client().get('/shop/v1/me', { headers: { cookie: `shop_session=${cookie}`, 'x-platform-nonce': nonce } });
    expectError(replay, 401, 'shop_rest_not_logged_in');
  });
});

describe('application passwords', () => {
  it('are created once-shown, authenticate Basic, list without secrets, and revoke', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const created = await c.post('/platform/v1/users/me/application-passwords', { name: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ uuid: expect.any(String), name: 'CI', password: expect.stringMatching(/^\S{24}$/) });
    expect(created.body.created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const basic = ShopClient.basic(stack.url, ADMIN.login, created.body.password);
    expect((await basic.get('/shop/v1/settings')).status).toBe(200);
    expect((await ShopClient.basic(stack.url, ADMIN.email, created.body.password).get('/shop/v1/me')).status).toBe(200);
    expectError(await ShopClient.basic(stack.url, ADMIN.login, ADMIN.password).get('/shop/v1/me'), 401, 'platform_invalid_application_password');

    const list = await c.get('/platform/v1/users/me/application-passwords');
    expect(list.body).toEqual([expect.objectContaining({ uuid: created.body.uuid, name: 'CI' })]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.password);

    const revoked = await c.delete(`/platform/v1/users/me/application-passwords/${created.body.uuid}`);
    expect(revoked.body.deleted).toBe(true);
    await waitFor(async () => (await basic.get('/shop/v1/me')).status === 401);
    expectError(await c.delete(`/platform/v1/users/me/application-passwords/${created.body.uuid}`), 404);
  });

  it('need a signed-in user and a name', async () => {
    expectError(await client().post('/platform/v1/users/me/application-passwords', { name: 'x' }), 401, 'rest_not_logged_in');
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    expectError(await c.post('/platform/v1/users/me/application-passwords', {}), 400, 'rest_missing_callback_param');
  });
});

// Last: it blocks this client IP for the rest of the file.
describe('rate limit per client IP', () => {
  it('blocks an IP after too many failures across accounts, even a correct login', async () => {
    let limited;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await client().post('/shop/v1/auth/login', { username: `nobody-${i}`, password: 'x' });
      if (res.status === 429) limited = res;
      else expectError(res, 401, 'shop_auth_failed');
    }
    expect(limited).toBeDefined();
    expectError(limited!, 429, 'shop_rate_limited');
    expectError(await client().post('/shop/v1/auth/login', { username: ADMIN.login, password: ADMIN.password }), 429, 'shop_rate_limited');
  });
});
