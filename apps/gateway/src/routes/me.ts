import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { customers } from '@storefront/proto/customers';
import { Address, AddressPatch } from '../http/schemas';
import { documented, errorResponses } from '../http/responses';
import { addressPatch, restAddress } from '../resources/address';
import {
  NotificationPreferencesSchema,
  notificationsResource,
  PrivacyPreferencesSchema,
  privacyResource,
  profileResource,
  ProfileSchema,
} from '../resources/profile';
import type { RouteModule } from '../context';

const ProfileBody = Type.Object(
  {
    first_name: Type.Optional(Type.String({ maxLength: 100 })),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    display_name: Type.Optional(Type.String({ maxLength: 250 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 100 })),
    subscribe_to_email: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const PasswordBody = Type.Object(
  {
    current_password: Type.String({ minLength: 1, maxLength: 4096 }),
    new_password: Type.String({ minLength: 8, maxLength: 4096 }),
  },
  { additionalProperties: false },
);

const NotificationsBody = Type.Object(
  {
    subscribe_to_email: Type.Optional(Type.Boolean()),
    order_email: Type.Optional(Type.Boolean()),
    marketing_email: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

const PrivacyBody = Type.Object(
  { data_sharing_consent: Type.Optional(Type.Boolean()), profiling_consent: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const AddressKind = Type.Object({
  kind: Type.String({ description: 'billing or shipping (anything else is 404).' }),
});

const doc = documented('customers');
const MenuItem = Type.Object(
  { id: Type.String(), label: Type.String(), url: Type.String(), order: Type.Integer(), icon: Type.String() },
  { title: 'MenuItem' },
);
const Addresses = Type.Object({ billing: Address, shipping: Address }, { title: 'Addresses' });
const PasswordChanged = Type.Object({ updated: Type.Boolean() }, { title: 'PasswordChanged' });
const ErasureRequest = Type.Object({ request_id: Type.String(), status: Type.String() }, { title: 'ErasureRequest' });

function withPaymentMethodsItem(items: customers.MenuItem[], available: boolean): customers.MenuItem[] {
  const others = items.filter((i) => i.id !== 'payment-methods');
  if (!available) return others;
  const existing = items.find((i) => i.id === 'payment-methods');
  const dashboard = items.find((i) => i.id === 'dashboard')?.url ?? '/my-account/';
  const item = existing ?? { id: 'payment-methods', label: 'Payment methods', url: `${dashboard.replace(/\/?$/, '/')}payment-methods/`, order: 50, icon: 'payment-methods' };
  return [...others, item].sort((a, b) => a.order - b.order);
}

const UPDATE = ['PUT', 'PATCH'] as Array<'PUT' | 'PATCH'>;

/** The signed-in customer's dashboard (spec 4.9): profile, password, addresses, preferences, menu. */
export const meRoutes: RouteModule = (app, ctx) => {
  const profile = ctx.clients.customers.profile;
  const config = { access: 'logged_in' as const };

  app.get('/me', { config, schema: doc('getProfile', 'Get the signed-in customer\'s profile', { 200: ProfileSchema }) }, async (request) => {
    const res = await profile.getProfile({}, request.caller);
    return profileResource(res.profile!, request);
  });

  app.route({
    method: UPDATE,
    url: '/me',
    config,
    schema: { ...doc('updateProfile', 'Update the profile', { 200: ProfileSchema, ...errorResponses(409, 422) }), body: ProfileBody },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof ProfileBody>;
      const res = await profile.updateProfile(
        {
          firstName: b.first_name,
          lastName: b.last_name,
          displayName: b.display_name,
          email: b.email,
          subscribeToEmail: b.subscribe_to_email,
        },
        request.caller,
      );
      return profileResource(res.profile!, request);
    },
  });

  app.route({
    method: UPDATE,
    url: '/me/password',
    config,
    schema: { ...doc('changePassword', 'Change the password', { 200: PasswordChanged, ...errorResponses(422) }), body: PasswordBody },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof PasswordBody>;
      await profile.changePassword({ currentPassword: b.current_password, newPassword: b.new_password }, request.caller);
      ctx.cache.evictUser(request.caller.userId);
      return { updated: true };
    },
  });

  app.get('/me/menu', { config, schema: doc('getMenu', 'Get the account menu', { 200: Type.Array(MenuItem) }) }, async (request) => {
    const [{ items }, tokenization] = await Promise.all([
      profile.getMenu({}, request.caller),
      ctx.clients.payments?.paymentGateway.getTokenizationStatus({}, request.caller),
    ]);
    // "Payment methods" exactly when an active gateway supports tokenization (payments decides).
    return withPaymentMethodsItem(items, tokenization?.available ?? false).map((i) => ({
      id: i.id,
      label: i.label,
      url: i.url,
      order: i.order,
      icon: i.icon,
    }));
  });

  app.get('/me/addresses', { config, schema: doc('getAddresses', 'Get the billing and shipping addresses', { 200: Addresses }) }, async (request) => {
    const res = await profile.getAddresses({}, request.caller);
    return { billing: restAddress(res.billing), shipping: restAddress(res.shipping) };
  });

  app.route({
    method: UPDATE,
    url: '/me/addresses/:kind',
    config,
    schema: {
      ...doc('updateAddress', 'Update the billing or shipping address', { 200: Address, ...errorResponses(422) }),
      params: AddressKind,
      body: AddressPatch,
    },
    handler: async (request: FastifyRequest) => {
      // customers checks the kind (404 rest_no_route for anything but billing/shipping).
      const { kind } = request.params as Static<typeof AddressKind>;
      const res = await profile.updateAddress(
        { kind, address: addressPatch(request.body as Static<typeof AddressPatch>) },
        request.caller,
      );
      return restAddress(res.address);
    },
  });

  app.get(
    '/me/notifications',
    { config, schema: doc('getNotificationPreferences', 'Get email preferences', { 200: NotificationPreferencesSchema }) },
   async (request) =>
    notificationsResource((await profile.getNotificationPreferences({}, request.caller)).preferences),
  );
  app.route({
    method: UPDATE,
    url: '/me/notifications',
    config,
    schema: {
      ...doc('updateNotificationPreferences', 'Update email preferences', { 200: NotificationPreferencesSchema }),
      body: NotificationsBody,
    },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof NotificationsBody>;
      const res = await profile.updateNotificationPreferences(
        { subscribeToEmail: b.subscribe_to_email, orderEmail: b.order_email, marketingEmail: b.marketing_email },
        request.caller,
      );
      return notificationsResource(res.preferences);
    },
  });

  app.get(
    '/me/privacy',
    { config, schema: doc('getPrivacyPreferences', 'Get privacy preferences', { 200: PrivacyPreferencesSchema }) },
   async (request) =>
    privacyResource((await profile.getPrivacyPreferences({}, request.caller)).preferences),
  );
  app.route({
    method: UPDATE,
    url: '/me/privacy',
    config,
    schema: {
      ...doc('updatePrivacyPreferences', 'Update privacy preferences', { 200: PrivacyPreferencesSchema }),
      body: PrivacyBody,
    },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof PrivacyBody>;
      const res = await profile.updatePrivacyPreferences(
        { dataSharingConsent: b.data_sharing_consent, profilingConsent: b.profiling_consent },
        request.caller,
      );
      return privacyResource(res.preferences);
    },
  });

  app.post(
    '/me/privacy/erase-request',
    { config, schema: doc('requestErasure', 'Request erasure of personal data', { 200: ErasureRequest, ...errorResponses(409) }) },
   async (request) => {
    const res = await profile.requestErasure({}, request.caller);
    return { request_id: res.requestId, status: res.status };
  });
};
