import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Platform } from '../src';
import { ADMIN, startStack } from './support/stack';
import { expectError, ShopClient, type ShopResponse } from './support/client';

let stack: Platform;
let admin: ShopClient;
let customer: ShopClient;
let guest: ShopClient;

beforeAll(async () => {
  stack = await startStack();
  admin = new ShopClient(stack.url);
  await admin.login(ADMIN.login, ADMIN.password);
  customer = new ShopClient(stack.url);
  const registered = await customer.post('/shop/v1/auth/register', { email: 'traveller@example.com', password: 'password-1' });
  expect(registered.status).toBe(200);
  guest = new ShopClient(stack.url);
});
afterAll(() => stack?.stop());

const CHECKOUT_STATES = '/shop/v1/checkout/states';
const ORDER_STATES = '/shop/v1/order/get_states';

function expectInvalid(res: ShopResponse, field: string): void {
  expectError(res, 400, 'rest_invalid_param');
  expect(Object.keys(res.body.data.params)).toContain(field);
}

describe('GET /checkout/states (public)', () => {
  it('answers guests, customers and admins with the state field of a country', async () => {
    for (const client of [guest, customer, admin]) {
      const res = await client.get(`${CHECKOUT_STATES}?country_code=US`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ country_code: 'US', label: 'State', required: true });
      expect(Object.keys(res.body)).toEqual(['country_code', 'states', 'label', 'required']);
      expect(res.body.states).toMatchObject({ CA: 'California', NY: 'New York', DC: 'District of Columbia' });
      expect(Object.keys(res.body.states)).toHaveLength(60);
    }
  });

  it('normalizes lowercase codes and gives {} for a country without a state list', async () => {
    expect((await guest.get(`${CHECKOUT_STATES}?country_code=ca`)).body).toMatchObject({ country_code: 'CA', states: { QC: 'Quebec' } });
    expect((await guest.get(`${CHECKOUT_STATES}?country_code=jp`)).body.states['13']).toBe('Tokyo');
    const gb = await guest.get(`${CHECKOUT_STATES}?country_code=gb`);
    expect(gb.body).toEqual({ country_code: 'GB', states: {}, label: 'County', required: false });
  });

  it('400 for a missing or malformed code, 404 shop_country_invalid for an unknown one', async () => {
    const missing = await guest.get(CHECKOUT_STATES);
    expectError(missing, 400, 'rest_missing_callback_param');
    expect(missing.body.data.params).toEqual(['country_code']);
    for (const code of ['USA', 'U', 'U1', '', '12']) expectInvalid(await guest.get(`${CHECKOUT_STATES}?country_code=${code}`), 'country_code');
    expectInvalid(await guest.get(`${CHECKOUT_STATES}?country_code=US&country_code=FR`), 'country_code');
    const unknown = await guest.get(`${CHECKOUT_STATES}?country_code=zz`);
    expectError(unknown, 404, 'shop_country_invalid');
    expect(unknown.body.message).toContain('ZZ');
  });

  it('decides publishable keys like every checkout route (the embed addon denies an unknown key)', async () => {
    const keyed = await guest.get(`${CHECKOUT_STATES}?country_code=US`, { headers: { 'x-shop-embed-key': 'pk_test' } });
    expectError(keyed, 401, 'shop_pk_invalid');
  });
});

describe('GET /order/get_states/<cc> (admin)', () => {
  it('is 401 for guests, 403 for customers', async () => {
    expectError(await guest.get(`${ORDER_STATES}/US`), 401, 'shop_rest_forbidden_context');
    expectError(await customer.get(`${ORDER_STATES}/US`), 403, 'shop_rest_forbidden_context');
  });

  it('answers the same object as /checkout/states', async () => {
    const res = await admin.get(`${ORDER_STATES}/it`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await admin.get(`${CHECKOUT_STATES}?country_code=IT`)).body);
    expect(res.body.states).toMatchObject({ RM: 'Roma', MI: 'Milano' });
    expect((await admin.get(`${ORDER_STATES}/SE`)).body).toEqual({ country_code: 'SE', states: {}, label: 'State / County', required: false });
  });

  it('400 for a malformed code, 404 shop_country_invalid for an unknown one', async () => {
    expectInvalid(await admin.get(`${ORDER_STATES}/usa`), 'cc');
    expectInvalid(await admin.get(`${ORDER_STATES}/1`), 'cc');
    expectError(await admin.get(`${ORDER_STATES}/XX`), 404, 'shop_country_invalid');
  });
});
