import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { activityLogged } from '@storefront/domain-events';
import { OrderEvents } from '@storefront/domain-events/orders';
import type { EventTransport } from '@storefront/events';
import { waitFor } from '@storefront/testing';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient } from './support/client';
import { TestSmtpServer } from './support/smtp';
import { connectStackEvents, publishEvent } from './support/events';


let stack: Platform;
let smtp: TestSmtpServer;
let events: EventTransport;
let admin: ShopClient;

beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
  stack = await startStack({ SMTP_URL: smtp.url, SHOP_ADMIN_EMAIL: ADMIN.email, LOG_RETENTION_SWEEP_SECONDS: '0' });
  events = await connectStackEvents(stack, 'notifications-test');
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
});
afterAll(async () => {
  await events?.close();
  await stack?.stop();
  await smtp?.stop();
});

const guest = () => new ShopClient(stack.url);
const W = 20_000;

/** waitFor with the falsy cases removed from the type. */
async function until<T>(probe: () => Promise<T | undefined | null | false | 0> | T | undefined | null | false | 0): Promise<T> {
  return (await waitFor(probe, W)) as T;
}

async function customer(email: string): Promise<ShopClient> {
  const c = guest();
  const res = await c.post('/shop/v1/auth/register', { email, password: 'password-1', first_name: 'Zed' });
  expect(res.status).toBe(200);
  return c;
}

async function emailLogs(query = ''): Promise<any[]> {
  const res = await admin.get(`/shop/v1/email-logs?per_page=100${query}`);
  expect(res.status).toBe(200);
  return res.body;
}

describe('welcome and password-reset emails through a real SMTP server', () => {
  it('sends the welcome email on registration', async () => {
    await customer('wendy@example.com');
    const [mail] = await until(() => smtp.to('wendy@example.com').length && smtp.to('wendy@example.com'));
    expect(mail.subject).toContain('Welcome');
    expect(mail.text).toContain('wendy');
    expect(mail.html).toContain('<p>Hi Zed,</p>');
    const [entry] = await emailLogs('&type=welcome&search=wendy');
    expect(entry).toMatchObject({ type: 'welcome', to: 'wendy@example.com', status: 'sent', error: '' });
    expect(entry.sent_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("links to and names the store as an admin set it (the site options), not the service's boot configuration", async () => {
    const before = (await admin.get('/platform/v1/settings')).body;
    // A store in a subdirectory: every page link keeps the site's own path.
    expect((await admin.patch('/platform/v1/settings', { site_url: 'https://shop.example.test/store', store_name: 'Acme Shop' })).status).toBe(200);
    try {
      await customer('sam@example.com');
      const [mail] = await until(() => smtp.to('sam@example.com').length && smtp.to('sam@example.com'));
      expect(mail.subject).toBe('Welcome to Acme Shop');
      expect(mail.text).toContain('https://shop.example.test/store/my-account/');
      expect(mail.text).not.toContain(before.site_url);
      await guest().post('/shop/v1/auth/forgot-password', { email: 'sam@example.com' });
      const reset = await until(() => smtp.to('sam@example.com').find((m) => /reset/i.test(m.subject)));
      const link = new URL(/https?:\/\/\S+/.exec(reset.text)![0]);
      expect(link.origin + link.pathname).toBe('https://shop.example.test/store/my-account/lost-password/');
      const done = await guest().post('/shop/v1/auth/reset-password', { key: link.searchParams.get('key'), login: link.searchParams.get('login'), password: 'brand-new-pass-2' });
      expect(done.body.redirect_url).toBe('https://shop.example.test/store/my-account/');
    } finally {
      await admin.patch('/platform/v1/settings', { site_url: before.site_url, store_name: before.store_name });
    }
  });

  it('a customer an admin creates without a password is told so and sent a link to set one, which signs them in', async () => {
    expect((await admin.post('/shop/v1/customer', { email: 'gina@example.com', username: 'gina' })).status).toBe(201);
    const welcome = await until(() => smtp.to('gina@example.com').find((m) => /welcome/i.test(m.subject)));
    expect(welcome.text).toContain('separate email with a link to set your password');
    const reset = await until(() => smtp.to('gina@example.com').find((m) => /reset/i.test(m.subject)));
    const link = new URL(/https?:\/\/\S+/.exec(reset.text)![0]);
    const set = await guest().post('/shop/v1/auth/reset-password', { key: link.searchParams.get('key'), login: link.searchParams.get('login'), password: 'gina-own-pass-1' });
    expect(set.status).toBe(200);
    expect((await guest().post('/shop/v1/auth/login', { username: 'gina', password: 'gina-own-pass-1' })).status).toBe(200);
    // One with a password chosen by the admin gets no such link.
    expect((await admin.post('/shop/v1/customer', { email: 'hal@example.com', username: 'hal', password: 'hal-pass-123' })).status).toBe(201);
    const plain = await until(() => smtp.to('hal@example.com').find((m) => /welcome/i.test(m.subject)));
    expect(plain.text).not.toContain('set your password');
  });

  it('runs the whole reset flow: request -> email -> link -> new password; old refused; key single-use', async () => {
    await customer('rita@example.com');
    await guest().post('/shop/v1/auth/forgot-password', { email: 'rita@example.com' });
    const mail = await until(() => smtp.to('rita@example.com').find((m) => /reset/i.test(m.subject)));
    const href = /https?:\/\/\S+/.exec(mail.text)![0];
    const link = new URL(href);
    expect(link.pathname).toBe('/my-account/lost-password/');
    const key = link.searchParams.get('key')!;
    const login = link.searchParams.get('login')!;
    expect(key.length).toBeGreaterThan(10);
    expect(login).toBe('rita');
    // The HTML part carries the same link, escaped (&amp;).
    expect(mail.html).toContain(href.replace(/&/g, '&amp;'));

    const ok = await guest().post('/shop/v1/auth/reset-password', { key, login, password: 'brand-new-pass-1' });
    expect(ok.status).toBe(200);
    expect((await guest().login('rita', 'brand-new-pass-1')).status).toBe(200);
    expectError(await guest().post('/shop/v1/auth/login', { username: 'rita', password: 'password-1' }), 401, 'shop_auth_failed');
    expectError(await guest().post('/shop/v1/auth/reset-password', { key, login, password: 'another-pass-1' }), 410, 'shop_reset_expired');
  });

  it('sends the erasure-request confirmation', async () => {
    const c = await customer('erin@example.com');
    const res = await c.post('/shop/v1/me/privacy/erase-request');
    const mail = await until(() => smtp.to('erin@example.com').find((m) => /erasure/i.test(m.subject)));
    expect(mail.text).toContain(res.body.request_id);
  });
});

describe('order emails', () => {
  it('sends order received to the customer and new order to the store admin once the placement succeeds (one mail, paid or not); cancelled, refunded', async () => {
    const lines = [{ productId: 1, variationId: 0, quantity: 2, priceId: 1, lineId: 1, downloadable: false, name: 'Mug <b>', total: '20.00', tax: '0' }];
    const base = { orderId: 9001, customerId: 0, currency: 'USD', billingEmail: 'olga@example.com', billingFirstName: 'Olga', orderKey: 'k' };
    const placed = { status: 'pending_payment', total: '20.00', lines, couponCodes: [], reservationId: '', paymentMethod: 'cod', createdAt: new Date(), createdVia: 'checkout' };
    const changed = (orderId: number, billingEmail: string, fromStatus: string, toStatus: string) => ({
      orderId, fromStatus, toStatus, byUserId: 0, changedAt: new Date(), billingEmail, billingFirstName: 'Olga', total: '20.00',
      currency: 'USD', paymentMethod: 'cod', lines, customerId: 0,
    });
    // A checkout's order whose card is declined: placed (pending), then failed: nothing is announced.
    await publishEvent(events, OrderEvents.orderPlaced, { ...base, ...placed, orderId: 9002, billingEmail: 'declined@example.com' });
    await publishEvent(events, OrderEvents.orderStatusChanged, changed(9002, 'declined@example.com', 'pending_payment', 'failed'));
    // Cancelled while still failed: never announced, so no cancel email either (one consumer handles its events in order:
    // once 9001's cancel email is out, this one was handled).
    await publishEvent(events, OrderEvents.orderCancelled, {
      ...base, orderId: 9002, billingEmail: 'declined@example.com', reservationId: '', lines, couponCodes: [], wasPaid: false, total: '20.00',
      previousStatus: 'failed',
    });
    await publishEvent(events, OrderEvents.orderPlaced, { ...base, ...placed });
    await publishEvent(events, OrderEvents.orderStatusChanged, changed(9001, 'olga@example.com', 'pending_payment', 'processing'));
    await publishEvent(events, OrderEvents.orderCancelled, {
      ...base, reservationId: '', lines, couponCodes: [], wasPaid: true, total: '20.00', previousStatus: 'processing',
    });
    await publishEvent(events, OrderEvents.orderRefunded, { ...base, amount: '20.00', full: true, reason: 'Broken' });
    const mails = await until(() => smtp.to('olga@example.com').length >= 3 && smtp.to('olga@example.com'));
    expect(mails.map((m) => m.subject).join('|')).toMatch(/received/);
    // Paid at once: the announcement is the one mail (no separate "payment received").
    expect(mails.map((m) => m.subject).join('|')).not.toMatch(/Payment received/);
    expect(mails.map((m) => m.subject).join('|')).toMatch(/cancelled/);
    expect(mails.map((m) => m.subject).join('|')).toMatch(/refunded/);
    const received = mails.find((m) => /received/.test(m.subject))!;
    expect(received.html).toContain('Mug &lt;b&gt;');
    expect(received.html).not.toContain('Mug <b>');
    const adminMail = await until(() => smtp.to(ADMIN.email).find((m) => m.subject.includes('New order #9001')));
    expect(adminMail.text).toContain('20.00 USD');
    expect(mails.filter((m) => /received/.test(m.subject) && !/Payment/.test(m.subject))).toHaveLength(1);
    expect(smtp.to('declined@example.com')).toHaveLength(0);
    // The admin hears of the failed payment (nothing else of 9002) and of the placed order cancelled.
    const failed = await until(() => smtp.to(ADMIN.email).find((m) => m.subject.includes('#9002')));
    expect(failed.subject).toMatch(/failed/);
    expect(failed.text).toContain('pending_payment');
    await until(() => smtp.to(ADMIN.email).find((m) => m.subject.includes('Order #9001 has been cancelled')));
    expect(smtp.to(ADMIN.email).filter((m) => m.subject.includes('#9002'))).toHaveLength(1);

    // A bank transfer: announced on hold with how to pay (the gateway's instructions and account), then
    // "payment received" when paid, then "complete".
    const settings = await admin.patch('/shop/v1/settings/payment-gateways', {
      config: { bacs: { instructions: 'Pay within 7 days.\nUse the order number as the reference.', account_name: 'Shop & Co', iban: 'DE89 3704 0044 0532 0130 00' } },
    });
    expect(settings.status).toBe(200);
    const bacs = { ...base, orderId: 9003, billingEmail: 'bea@example.com' };
    await publishEvent(events, OrderEvents.orderPlaced, { ...bacs, ...placed, paymentMethod: 'bacs' });
    for (const [from, to] of [['pending_payment', 'on_hold'], ['on_hold', 'processing'], ['processing', 'completed']]) {
      await publishEvent(events, OrderEvents.orderStatusChanged, { ...changed(9003, 'bea@example.com', from, to), paymentMethod: 'bacs' });
    }
    const bea = await until(() => smtp.to('bea@example.com').length >= 3 && smtp.to('bea@example.com'));
    expect(bea.map((m) => m.subject)).toEqual([expect.stringMatching(/order #9003 has been received/), 'Payment received for order #9003', 'Your order #9003 is complete']);
    // Their lines kept (the admin wrote them), in the text part and as <br> in the escaped HTML part.
    expect(bea[0].text.replace(/\r/g, '')).toContain(
      'Pay within 7 days.\nUse the order number as the reference.\n\nOur bank details:\nAccount name: Shop & Co\nIBAN: DE89 3704 0044 0532 0130 00',
    );
    expect(bea[0].html).toContain('Account name: Shop &amp; Co<br>');
    // A card or cash order paid at once carries no instructions.
    expect(mails.find((m) => /received/.test(m.subject))!.text).not.toContain('bank details');
  });

  it('announces an order once, however often its status moves back and placed again', async () => {
    const lines = [{ productId: 1, variationId: 0, quantity: 1, priceId: 1, lineId: 1, downloadable: false, name: 'Mug', total: '10.00', tax: '0' }];
    const changed = (fromStatus: string, toStatus: string) => ({
      orderId: 9101, fromStatus, toStatus, byUserId: 0, changedAt: new Date(), billingEmail: 'bounce@example.com', billingFirstName: 'Bo',
      total: '10.00', currency: 'USD', paymentMethod: 'bacs', lines, customerId: 0,
    });
    // A bank-transfer order placed on hold, a declined card payment (failed), then paid by another card; an admin bounces it too.
    const ids = [
      await publishEvent(events, OrderEvents.orderPlaced, {
        orderId: 9101, customerId: 0, currency: 'USD', billingEmail: 'bounce@example.com', billingFirstName: 'Bo', orderKey: 'k',
        status: 'on_hold', total: '10.00', lines, couponCodes: [], reservationId: '', paymentMethod: 'bacs', createdAt: new Date(), createdVia: 'checkout',
      }),
      await publishEvent(events, OrderEvents.orderStatusChanged, changed('on_hold', 'failed')),
      await publishEvent(events, OrderEvents.orderStatusChanged, changed('failed', 'processing')),
      await publishEvent(events, OrderEvents.orderStatusChanged, changed('processing', 'pending_payment')),
      await publishEvent(events, OrderEvents.orderStatusChanged, changed('pending_payment', 'on_hold')),
    ];
    // The three that ask for the announcement handled (recorded in the inbox; the others ask for no email), then
    // the mailbox is counted.
    const asking = [ids[0], ids[2], ids[4]];
    const notifications = stack.services.find((s) => s.name === 'notifications')!;
    const db = new pg.Client({ connectionString: notifications.config.DATABASE_URL });
    await db.connect();
    try {
      await until(async () => (await db.query('select count(distinct event_id)::int as n from notifications.inbox where event_id = any($1)', [asking])).rows[0].n === asking.length);
    } finally {
      await db.end();
    }
    const received = smtp.to('bounce@example.com').filter((m) => /received/.test(m.subject) && !/Payment/.test(m.subject));
    expect(received).toHaveLength(1);
    expect(smtp.to(ADMIN.email).filter((m) => m.subject.includes('New order #9101'))).toHaveLength(1);
  });
});

describe("a customer's order_email preference", () => {
  it('turned off: no order emails to that customer (the store admin still hears of the order); turned on again: they resume', async () => {
    const zoe = await customer('zoe@example.com');
    const zoeId: number = (await zoe.get('/shop/v1/me')).body.id;
    const notifications = stack.services.find((s) => s.name === 'notifications')!;
    const db = new pg.Client({ connectionString: notifications.config.DATABASE_URL });
    await db.connect();
    const choice = async () =>
      (await db.query('select order_email from notifications.email_preferences where customer_id = $1', [zoeId])).rows[0]?.order_email as boolean | undefined;
    try {
      expect((await zoe.put('/shop/v1/me/notifications', { order_email: false })).body.order_email).toBe(false);
      await until(async () => (await choice()) === false);
      const lines = [{ productId: 1, variationId: 0, quantity: 1, priceId: 1, lineId: 1, downloadable: false, name: 'Mug', total: '10.00', tax: '0' }];
      const changed = (orderId: number) => ({
        orderId, fromStatus: 'pending_payment', toStatus: 'processing', byUserId: 0, changedAt: new Date(), billingEmail: 'zoe@example.com',
        billingFirstName: 'Zoe', total: '10.00', currency: 'USD', paymentMethod: 'cod', lines, customerId: zoeId,
      });
      await publishEvent(events, OrderEvents.orderStatusChanged, changed(9301));
      await until(() => smtp.to(ADMIN.email).find((m) => m.subject.includes('New order #9301')));

      expect((await zoe.put('/shop/v1/me/notifications', { order_email: true })).body.order_email).toBe(true);
      await until(async () => (await choice()) === true);
      await publishEvent(events, OrderEvents.orderStatusChanged, changed(9302));
      const about = (m: { subject: string; text: string }, id: string) => m.subject.includes(id) || m.text.includes(id);
      const mails = await until(() => {
        const orderMails = smtp.to('zoe@example.com').filter((m) => about(m, '9302'));
        return orderMails.length >= 1 && orderMails;
      });
      expect(mails.map((m) => m.subject).join('|')).toMatch(/received/);
      // Nothing about 9301: its order-received email was never sent (nor logged).
      expect(smtp.to('zoe@example.com').filter((m) => about(m, '9301'))).toEqual([]);
      expect((await emailLogs()).filter((e) => e.to === 'zoe@example.com' && (e.subject.includes('9301') || e.body.includes('9301')))).toEqual([]);
    } finally {
      await db.end();
    }
  });
});

describe('email consumers under redelivery', () => {
  // A bank transfer paid: one "payment received" email per event.
  const paid = (orderId: number, billingEmail: string) => ({
    orderId, fromStatus: 'on_hold', toStatus: 'processing', byUserId: 0, changedAt: new Date(), billingEmail, billingFirstName: 'Rita',
    total: '5.00', currency: 'USD', paymentMethod: 'bacs', lines: [], customerId: 0,
  });

  it("sends an event's emails once, however often it is delivered; a failed send is logged once, as failed", async () => {
    // Delivered, then redelivered (same event id, new broker message), then a later event of the same consumer.
    const sent = await publishEvent(events, OrderEvents.orderStatusChanged, paid(9101, 'twice@example.com'));
    await publishEvent(events, OrderEvents.orderStatusChanged, paid(9101, 'twice@example.com'), sent);
    const rejected = await publishEvent(events, OrderEvents.orderStatusChanged, paid(9102, 'reject-twice@example.com'));
    await publishEvent(events, OrderEvents.orderStatusChanged, paid(9102, 'reject-twice@example.com'), rejected);
    await publishEvent(events, OrderEvents.orderStatusChanged, paid(9103, 'after@example.com'));
    await until(() => smtp.to('after@example.com').length === 1);
    expect(smtp.to('twice@example.com')).toHaveLength(1);
    expect((await emailLogs('&search=twice@example.com')).map((e) => [e.to, e.status]).sort()).toEqual([
      ['reject-twice@example.com', 'failed'],
      ['twice@example.com', 'sent'],
    ]);
    const failures = (await guest().get('/shop/v1/logs?per_page=100&status=error')).body as any[];
    const failed = (await emailLogs('&search=reject-twice'))[0];
    expect(failures.filter((l) => l.context.email_log_id === failed.id)).toHaveLength(1);
  });
});

describe('SMTP failures', () => {
  it('logs a rejected recipient as failed with the error', async () => {
    await customer('reject-me@example.com');
    const [entry] = await until(async () => {
      const list = await emailLogs('&status=failed&search=reject-me');
      return list.length && list;
    });
    expect(entry).toMatchObject({ type: 'welcome', status: 'failed', sent_at: null });
    expect(entry.error).toMatch(/reject/i);
  });

  it('SMTP down: entries failed with the error, nothing lost; resend works when SMTP returns', async () => {
    const port = smtp.port;
    await smtp.stop();
    await customer('outage@example.com');
    const [failed] = await until(async () => {
      const list = await emailLogs('&status=failed&search=outage');
      return list.length && list;
    });
    expect(failed.error).toMatch(/ECONNREFUSED|connect/i);
    const stillDown = await admin.post(`/shop/v1/email-logs/${failed.id}/resend`);
    expect(stillDown.status).toBe(200);
    expect(stillDown.body).toMatchObject({ status: 'failed', resent_from: failed.id });

    await smtp.start(port);
    const resent = await admin.post(`/shop/v1/email-logs/${failed.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: 'sent', to: 'outage@example.com', type: 'welcome', resent_from: failed.id });
    expect(resent.body.id).not.toBe(failed.id);
    const mail = await until(() => smtp.to('outage@example.com')[0]);
    expect(mail.subject).toBe(failed.subject);
    // The failure shows in the activity log, without the address.
    const logs = (await guest().get('/shop/v1/logs?per_page=100&status=error')).body as any[];
    expect(logs.some((l) => l.source === 'notifications' && l.context.email_log_id === failed.id)).toBe(true);
    expect(JSON.stringify(logs)).not.toContain('outage@example.com');
  });
});

describe('/email-logs routes', () => {
  it('lists with pagination headers and filters', async () => {
    // OPTIONS on the collections answers the item schema (spec 1).
    expect((await admin.options('/shop/v1/email-logs')).body.schema?.properties).toHaveProperty('to');
    expect((await admin.options('/shop/v1/logs')).body.schema?.properties).toHaveProperty('source');
    const res = await admin.get('/shop/v1/email-logs?per_page=1&status=sent');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers.get('x-platform-total'))).toBeGreaterThan(1);
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.body[0]).toEqual({
      id: expect.any(Number), type: expect.any(String), to: expect.any(String), subject: expect.any(String),
      body: expect.any(String), status: 'sent', error: '', resent_from: expect.any(Number),
      created_at: expect.any(String), sent_at: expect.any(String), _links: expect.any(Object),
    });
    expect((await admin.get('/shop/v1/email-logs?type=no_such_type')).body).toEqual([]);
    expect((await admin.get('/shop/v1/email-logs?type=Order-Completed')).body).toEqual([]);
    expectError(await admin.get('/shop/v1/email-logs?per_page=101'), 400, 'rest_invalid_param');
    expectError(await admin.get('/shop/v1/email-logs?status=bogus'), 400, 'rest_invalid_param');
  });

  it('gets, deletes, 404s unknown and bad ids', async () => {
    const [entry] = await emailLogs();
    expect((await admin.get(`/shop/v1/email-logs/${entry.id}`)).body.id).toBe(entry.id);
    const del = await admin.delete(`/shop/v1/email-logs/${entry.id}`);
    expect(del.body).toMatchObject({ deleted: true, previous: { id: entry.id } });
    expectError(await admin.get(`/shop/v1/email-logs/${entry.id}`), 404);
    expectError(await admin.delete(`/shop/v1/email-logs/${entry.id}`), 404);
    expectError(await admin.post(`/shop/v1/email-logs/${entry.id}/resend`), 404);
    expectError(await admin.get('/shop/v1/email-logs/abc'), 400, 'rest_invalid_param');
    expectError(await admin.get('/shop/v1/email-logs/99999999999'), 400, 'rest_invalid_param');
  });

  it('settings: integers required; purge applies them; resendable types', async () => {
    expect((await admin.get('/shop/v1/email-logs/settings')).body).toEqual({ retention_days_sent: 30, retention_days_failed: 90 });
    expectError(await admin.post('/shop/v1/email-logs/settings', { retention_days_sent: 'abc', retention_days_failed: 5 }), 400, 'rest_invalid_param');
    expectError(await admin.post('/shop/v1/email-logs/settings', { retention_days_sent: 1.5, retention_days_failed: 5 }), 400, 'rest_invalid_param');
    expectError(await admin.post('/shop/v1/email-logs/settings', { retention_days_sent: 5 }), 400, 'rest_missing_callback_param');
    // Access first: a guest hears 401, whatever the body (not 415 for its type or 400 for its JSON).
    expectError(await guest().post('/shop/v1/email-logs/settings', undefined, { raw: 'x', headers: { 'content-type': 'text/plain' } }), 401, 'shop_rest_forbidden_context');
    expectError(await guest().post('/shop/v1/email-logs/settings', undefined, { raw: '{bad', headers: { 'content-type': 'application/json' } }), 401, 'shop_rest_forbidden_context');
    const saved = await admin.post('/shop/v1/email-logs/settings', { retention_days_sent: 7, retention_days_failed: 14 });
    expect(saved.body).toEqual({ retention_days_sent: 7, retention_days_failed: 14 });
    expect((await admin.get('/shop/v1/email-logs/settings')).body).toEqual(saved.body);
    const purge = await admin.post('/shop/v1/email-logs/purge');
    expect(purge.status).toBe(200);
    expect(purge.body).toEqual({ purged: true, deleted: 0 });
    const resendable = await admin.get('/shop/v1/email-logs/resendable-types');
    const types = resendable.body as { type: string }[];
    expect(resendable.headers.get('x-platform-total')).toBe(String(types.length));
    expect(types.map((t) => t.type)).toEqual(expect.arrayContaining(['welcome', 'password_reset', 'order_paid', 'admin_new_order']));
  });

  it.each([
    ['GET', '/shop/v1/email-logs'],
    ['GET', '/shop/v1/email-logs/1'],
    ['DELETE', '/shop/v1/email-logs/1'],
    ['GET', '/shop/v1/email-logs/settings'],
    ['POST', '/shop/v1/email-logs/settings'],
    ['POST', '/shop/v1/email-logs/purge'],
    ['GET', '/shop/v1/email-logs/resendable-types'],
    ['POST', '/shop/v1/email-logs/1/resend'],
    ['DELETE', '/shop/v1/logs'],
    ['GET', '/shop/v1/logs/settings'],
    ['POST', '/shop/v1/logs/settings'],
  ])('%s %s: guest 401, customer 403 (shop_rest_forbidden_context)', async (method, path) => {
    const json = method === 'GET' ? undefined : {};
    expectError(await guest().request(method, path, { json }), 401, 'shop_rest_forbidden_context');
    const c = guest();
    await c.login('wendy', 'password-1');
    expectError(await c.request(method, path, { json }), 403, 'shop_rest_forbidden_context');
  });
});

describe('/logs', () => {
  it('records every source\'s activity PII-free; public read; admin filters, delete and settings', async () => {
    await publishEvent(events, activityLogged('orders'), {
      status: 'warning',
      source: 'orders',
      message: 'Order 77 of pat@example.com failed',
      contextJson: JSON.stringify({ order_id: 77, email: 'pat@example.com', billing: { first_name: 'Pat' }, from: 'pending' }),
      customerId: 5,
      orderId: 77,
    });
    await publishEvent(events, activityLogged('payments'), {
      status: 'error', source: 'payments', message: 'Card 4000000000000002 declined', contextJson: '{"order_id": 78}', customerId: 6, orderId: 78,
    });
    const logs = await until(async () => {
      const list = (await guest().get('/shop/v1/logs?per_page=100')).body as any[];
      return list.filter((l) => l.context.order_id === 77 || l.context.order_id === 78).length === 2 && list;
    });
    const entry = logs.find((l) => l.context.order_id === 77);
    expect(entry).toEqual({
      id: expect.any(Number), status: 'warning', source: 'orders', message: 'Order 77 of [redacted] failed',
      context: { order_id: 77, from: 'pending', billing: {} }, created_at: expect.any(String),
      _links: { self: [{ href: expect.stringMatching(new RegExp(`/shop/v1/logs/${entry.id}$`)) }], collection: [{ href: expect.stringMatching(/\/shop\/v1\/logs$/) }] },
    });
    // Its self link answers (public, as the list); unknown and malformed ids do not.
    expect((await guest().get(`/shop/v1/logs/${entry.id}`)).body).toEqual(entry);
    expectError(await guest().get('/shop/v1/logs/99999999'), 404, 'shop_rest_invalid_id');
    expectError(await guest().get('/shop/v1/logs/abc'), 400, 'rest_invalid_param');
    // Every entry, after every event of this file: no email, name or card number.
    const all = JSON.stringify(logs);
    expect(all).not.toMatch(/@example\.(com|test)/);
    expect(all).not.toMatch(/Pat\b|Olga|Zed|4000000000000002/);

    expect((await guest().get('/shop/v1/logs?status=warning')).body.every((l: any) => l.status === 'warning')).toBe(true);
    expectError(await guest().get('/shop/v1/logs?customer_id=5'), 401, 'shop_rest_forbidden_context');
    expectError(await guest().get('/shop/v1/logs?customer_id=abc'), 401, 'shop_rest_forbidden_context');
    expectError(await guest().get('/shop/v1/logs?order_id=77'), 401, 'shop_rest_forbidden_context');
    const filtered = await admin.get('/shop/v1/logs?order_id=77');
    expect(filtered.body.map((l: any) => l.id)).toEqual([entry.id]);
    expect((await admin.get('/shop/v1/logs?customer_id=6')).body).toHaveLength(1);
    expectError(await guest().get('/shop/v1/logs?per_page=101'), 400, 'rest_invalid_param');
    expectError(await guest().get('/shop/v1/logs?status=loud'), 400, 'rest_invalid_param');

    expectError(await admin.delete('/shop/v1/logs', { json: {} }), 400, 'rest_missing_callback_param');
    expectError(await admin.delete('/shop/v1/logs', { json: { ids: ['x'] } }), 400, 'rest_invalid_param');
    expectError(await admin.delete('/shop/v1/logs'), 400, 'rest_missing_callback_param');
    expect((await admin.delete('/shop/v1/logs', { json: { ids: [entry.id] } })).body).toEqual({ deleted: 1 });
    // DELETE parameters may come in the query string too (the host platform takes both).
    const declined = logs.find((l) => l.context.order_id === 78);
    expect((await admin.delete(`/shop/v1/logs?ids=${declined.id}`)).body).toEqual({ deleted: 1 });
    expect((await admin.get('/shop/v1/logs?order_id=78')).body).toEqual([]);
    expect((await admin.get('/shop/v1/logs?order_id=77')).body).toEqual([]);

    expect((await admin.get('/shop/v1/logs/settings')).body).toEqual({ enabled: true, retention_days: 30 });
    expectError(await admin.post('/shop/v1/logs/settings', { retention_days: 'x' }), 400, 'rest_invalid_param');
    expect((await admin.post('/shop/v1/logs/settings', { enabled: false, retention_days: 3 })).body).toEqual({ enabled: false, retention_days: 3 });
    await publishEvent(events, activityLogged('catalog'), { status: 'info', source: 'catalog', message: 'ignored', contextJson: '{"product_id": 1}', customerId: 0, orderId: 0 });
    await admin.post('/shop/v1/logs/settings', { enabled: true });
    await publishEvent(events, activityLogged('catalog'), { status: 'info', source: 'catalog', message: 'recorded', contextJson: '{"product_id": 2}', customerId: 0, orderId: 0 });
    const catalogLogs = await until(async () => {
      const list = ((await guest().get('/shop/v1/logs?per_page=100')).body as any[]).filter((l) => l.source === 'catalog');
      return list.length && list;
    });
    expect(catalogLogs.map((l) => l.message)).toEqual(['recorded']);
  });

  it('records an activity event once, however often it is delivered', async () => {
    const entry = { status: 'info', source: 'cart', message: 'delivered twice', contextJson: '{"order_id": 4242}', customerId: 0, orderId: 4242 };
    const id = await publishEvent(events, activityLogged('cart'), entry);
    await publishEvent(events, activityLogged('cart'), entry, id);
    // A later event of the same consumer: once it is in, the redelivery before it was handled too.
    await publishEvent(events, activityLogged('cart'), { ...entry, message: 'after', orderId: 4243, contextJson: '{"order_id": 4243}' });
    await until(async () => (await admin.get('/shop/v1/logs?order_id=4243')).body.length === 1);
    expect((await admin.get('/shop/v1/logs?order_id=4242')).body.map((l: any) => l.message)).toEqual(['delivered twice']);
  });
});
