import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { connectJetStream, type EventTransport } from '@storefront/events';
import type { customers } from '@storefront/proto/customers';
import { silentLogger, waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';

// Races and limits (issue 8, items 6, 7, 9): limits that hold under
// concurrency, single-use reset keys under concurrency, forgot-password,
// Basic and current-password failures counted, logout only with the nonce.

let stack: Platform;
let listener: EventTransport;
const resetRequests: customers.PasswordResetRequested[] = [];

beforeAll(async () => {
  stack = await startStack({ LOGIN_MAX_FAILURES_PER_ACCOUNT: '5', LOGIN_MAX_FAILURES_PER_IP: '500' });
  const env = stack.services[0].config;
  listener = await connectJetStream({
    url: env.NATS_URL!,
    stream: env.EVENTS_STREAM,
    subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
    name: 'limits-test',
    logger: silentLogger(),
  });
  await listener.consume('limits_test', listener.subjectFor(CustomerEvents.passwordResetRequested.subject), async (m) => {
    resetRequests.push(CustomerEvents.passwordResetRequested.codec.decode(m.data));
  });
});
afterAll(async () => {
  await listener?.close();
  await stack?.stop();
});

const client = () => new ShopClient(stack.url);

async function register(login: string, password: string): Promise<void> {
  const res = await client().post('/shop/v1/auth/register', { email: `${login}@example.com`, password, auto_login: false });
  expect(res.status).toBeLessThan(300);
}

describe('login failure limit under concurrency', () => {
  it('40 parallel wrong passwords for one account: at most 5 are checked, the rest 429', async () => {
    await register('racer', 'right-password-1');
    const started = Date.now();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => client().post('/shop/v1/auth/login', { username: 'racer', password: 'wrong-password' })),
    );
    const checked = results.filter((r) => r.status === 401).length;
    const limited = results.filter((r) => r.status === 429);
    process.stdout.write(`limits: 40 parallel logins in ${Date.now() - started} ms: ${checked} checked, ${limited.length} limited\n`);
    expect(checked).toBeLessThanOrEqual(5);
    expect(checked + limited.length).toBe(40);
    expectError(limited[0], 429, 'shop_rate_limited');
    expect(Number(limited[0].headers.get('retry-after'))).toBeGreaterThan(0);
    // Even the right password is refused while the account is over its limit.
    expectError(await client().post('/shop/v1/auth/login', { username: 'racer', password: 'right-password-1' }), 429, 'shop_rate_limited');
  });
});

describe('password reset under concurrency', () => {
  it('two concurrent resets with one key: exactly one succeeds', async () => {
    await register('twin', 'first-password-1');
    const forgot = await client().post('/shop/v1/auth/forgot-password', { email: 'twin@example.com' });
    expect(forgot.status).toBe(200);
    await waitFor(() => resetRequests.some((r) => r.login === 'twin'), 20_000);
    const { key } = resetRequests.find((r) => r.login === 'twin')!;
    const results = await Promise.all(
      ['second-password-1', 'second-password-2'].map((password) =>
        client().post('/shop/v1/auth/reset-password', { key, login: 'twin', password }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 410]);
    expectError(results.find((r) => r.status === 410)!, 410, 'shop_reset_expired');
    const winner = results[0].status === 200 ? 'second-password-1' : 'second-password-2';
    expect((await client().post('/shop/v1/auth/login', { username: 'twin', password: winner })).status).toBe(200);
  });

  it('forgot-password is limited per address and answers the same for unknown addresses', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await client().post('/shop/v1/auth/forgot-password', { email: 'flood@example.com' }));
    expect(answers.slice(0, 5).every((a) => a.status === 200)).toBe(true);
    expectError(answers[5], 429, 'shop_rate_limited');
  });
});

describe('other credential checks count as failures', () => {
  it('failed Basic credentials are limited like logins', async () => {
    await register('basicuser', 'basic-password-1');
    const basic = ShopClient.basic(stack.url, 'basicuser', 'not an application password');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await basic.get('/shop/v1/me')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });

  it('wrong current_password is limited like logins', async () => {
    await register('changer', 'changer-password-1');
    const c = client();
    await c.login('changer', 'changer-password-1');
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push((await c.put('/shop/v1/me/password', { current_password: 'wrong', new_password: 'new-password-99' })).status);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe('logout', () => {
  it('needs the nonce: a cookie alone (a cross-site request) does not end the session', async () => {
    const c = client();
    await c.login(ADMIN.login, ADMIN.password);
    const nonce = c.nonce;
    c.nonce = undefined;
    const forged = await c.post('/platform/v1/logout', undefined, { headers: { 'x-platform-nonce': '' } });
    expectError(forged, 403, 'rest_cookie_invalid_nonce');
    c.nonce = nonce;
    expect((await c.get('/shop/v1/me')).status).toBe(200);
    expect((await c.post('/platform/v1/logout')).body).toEqual({ logged_out: true });
  });
});
