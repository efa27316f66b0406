import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { anonymousCaller, bindServices, openChannel, type CallerContext, type Channel, type PackageClients } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import { CustomerEvents } from '@storefront/domain-events/customers';
import { connectJetStream, type EventTransport } from '@storefront/events';
import { DomainError } from '@storefront/errors';
import { silentLogger, waitFor } from '@storefront/testing';
import { startTestService, type TestService } from '@storefront/service-kit/testing';
import { customersService } from '../src/service';

let service: TestService;
let channel: Channel;
let auth: PackageClients<typeof customers>['auth'];
let profile: PackageClients<typeof customers>['profile'];
let admin: PackageClients<typeof customers>['customer'];
let listener: EventTransport;
const received: string[] = [];

const guest = anonymousCaller('test', '10.0.0.1');
const as = (principal: customers.Principal | undefined): CallerContext => ({
  ...guest,
  userId: principal!.userId,
  login: principal!.login,
  roles: principal!.roles,
  capabilities: principal!.capabilities,
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  service = await startTestService(customersService, {
    env: { SHOP_ADMIN_PASSWORD: 'admin-password-1', SCRYPT_COST: '1024', LOGIN_MAX_FAILURES_PER_ACCOUNT: '3' },
  });
  channel = openChannel('customers', service.address);
  ({ auth, profile, customer: admin } = bindServices(channel, customers));
  listener = await connectJetStream({
    url: service.env.NATS_URL!,
    stream: service.env.EVENTS_STREAM!,
    subjectPrefix: service.env.EVENTS_SUBJECT_PREFIX!,
    name: 'listener',
    logger: silentLogger(),
  });
  await listener.consume('test_listener', listener.subjectFor('customers.>'), async (m) => {
    received.push(m.headers['Shop-Event-Type']);
  });
});

afterAll(async () => {
  await listener.close();
  channel.close();
  await service.stop();
});

describe('customers service over gRPC', () => {
  it('bootstraps the administrator and logs in with a session', async () => {
    const res = await auth.login(
      { identifier: 'admin', password: 'admin-password-1', remember: false, redirectTo: '' },
      guest,
    );
    expect(res.principal?.roles).toEqual(['administrator']);
    expect(res.principal?.capabilities).toContain('manage_options');
    expect(res.redirectUrl).toBe('http://127.0.0.1:8080/admin/');
    const resolved = await auth.resolveSession({ sessionId: res.session!.id }, guest);
    expect(resolved.principal?.login).toBe('admin');
    await auth.endSession({ sessionId: res.session!.id }, guest);
    expect((await rejection(auth.resolveSession({ sessionId: res.session!.id }, guest))).code).toBe('platform_session_invalid');
  });

  it('registers a customer with a derived username and publishes customer_created', async () => {
    const first = await auth.register(
      { email: 'jane@example.com', password: 'password-1', firstName: 'Jane', lastName: 'Doe', autoLogin: true },
      guest,
    );
    expect(first.principal?.login).toBe('jane');
    expect(first.principal?.roles).toEqual(['shop_customer']);
    expect(first.session?.id).toBeTruthy();
    const second = await auth.register(
      { email: 'jane@example.org', password: 'password-1', firstName: '', lastName: '', autoLogin: false },
      guest,
    );
    expect(second.principal?.login).toBe('jane1');
    expect(second.session).toBeUndefined();
    const dup = await rejection(
      auth.register({ email: 'JANE@example.com', password: 'password-1', firstName: '', lastName: '', autoLogin: false }, guest),
    );
    expect([dup.code, dup.status]).toEqual(['shop_register_email_taken', 409]);
    await waitFor(() => received.filter((t) => t === CustomerEvents.customerCreated.type).length >= 2);
  });

  it('limits failed logins per account with 429 and a retry delay', async () => {
    const attempt = (password: string) =>
      auth.login({ identifier: 'jane@example.org', password, remember: false, redirectTo: '' }, guest);
    for (let i = 0; i < 3; i++) expect((await rejection(attempt('wrong'))).code).toBe('shop_auth_failed');
    const limited = await rejection(attempt('password-1'));
    expect([limited.code, limited.status]).toEqual(['shop_rate_limited', 429]);
    expect(Number(limited.data.retry_after)).toBeGreaterThan(0);
  });

  it('serves the profile of the caller and refuses a guest', async () => {
    const login = await auth.login({ identifier: 'jane', password: 'password-1', remember: true, redirectTo: '' }, guest);
    const me = await profile.getProfile({}, as(login.principal));
    expect(me.profile).toMatchObject({ username: 'jane', email: 'jane@example.com', firstName: 'Jane' });
    expect(me.profile?.stats).toEqual({ totalOrders: 0, totalSpent: '0.00', totalDownloads: 0 });
    const denied = await rejection(profile.getProfile({}, guest));
    expect([denied.code, denied.status]).toEqual(['shop_rest_not_logged_in', 401]);
  });

  it('lists customers only by default and all users on request', async () => {
    const onlyCustomers = await admin.listCustomers(
      customers.ListCustomersRequest.fromPartial({ page: 1, perPage: 10 }),
      guest,
    );
    expect(onlyCustomers.customers.map((c) => c.username).sort()).toEqual(['jane', 'jane1']);
    const everyone = await admin.listCustomers(
      customers.ListCustomersRequest.fromPartial({ page: 1, perPage: 10, roles: ['all'], orderby: 'id' }),
      guest,
    );
    expect(everyone.total).toBe(3);
    expect(everyone.customers[0].username).toBe('admin');
  });
});
