import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { DomainError } from '@storefront/errors';
import type { customers } from '@storefront/proto';
import { AddressPatch } from '../http/schemas';
import { addressPatch, restAddress } from '../resources/address';
import { notificationsResource, privacyResource, profileResource } from '../resources/profile';
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

const AddressKind = Type.Object({ kind: Type.String() });

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

  app.get('/me', { config }, async (request) => {
    const res = await profile.getProfile({}, request.caller);
    return profileResource(res.profile!, request);
  });

  app.route({
    method: UPDATE,
    url: '/me',
    config,
    schema: { body: ProfileBody },
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
    schema: { body: PasswordBody },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof PasswordBody>;
      await profile.changePassword({ currentPassword: b.current_password, newPassword: b.new_password }, request.caller);
      ctx.cache.evictUser(request.caller.userId);
      return { updated: true };
    },
  });

  app.get('/me/menu', { config }, async (request) => {
    const [{ items }, tokenization] = await Promise.all([
      profile.getMenu({}, request.caller),
      ctx.clients.payments?.gateways.getTokenizationStatus({}, request.caller),
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

  app.get('/me/addresses', { config }, async (request) => {
    const res = await profile.getAddresses({}, request.caller);
    return { billing: restAddress(res.billing), shipping: restAddress(res.shipping) };
  });

  app.route({
    method: UPDATE,
    url: '/me/addresses/:kind',
    config,
    schema: { params: AddressKind, body: AddressPatch },
    handler: async (request: FastifyRequest) => {
      const { kind } = request.params as Static<typeof AddressKind>;
      if (kind !== 'billing' && kind !== 'shipping') {
        throw new DomainError('rest_no_route', 404, 'No route was found matching the URL and request method.');
      }
      const res = await profile.updateAddress(
        { kind, address: addressPatch(request.body as Static<typeof AddressPatch>) },
        request.caller,
      );
      return restAddress(res.address);
    },
  });

  app.get('/me/notifications', { config }, async (request) =>
    notificationsResource((await profile.getNotificationPreferences({}, request.caller)).preferences),
  );
  app.route({
    method: UPDATE,
    url: '/me/notifications',
    config,
    schema: { body: NotificationsBody },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof NotificationsBody>;
      const res = await profile.updateNotificationPreferences(
        { subscribeToEmail: b.subscribe_to_email, orderEmail: b.order_email, marketingEmail: b.marketing_email },
        request.caller,
      );
      return notificationsResource(res.preferences);
    },
  });

  app.get('/me/privacy', { config }, async (request) =>
    privacyResource((await profile.getPrivacyPreferences({}, request.caller)).preferences),
  );
  app.route({
    method: UPDATE,
    url: '/me/privacy',
    config,
    schema: { body: PrivacyBody },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof PrivacyBody>;
      const res = await profile.updatePrivacyPreferences(
        { dataSharingConsent: b.data_sharing_consent, profilingConsent: b.profiling_consent },
        request.caller,
      );
      return privacyResource(res.preferences);
    },
  });

  app.post('/me/privacy/erase-request', { config }, async (request) => {
    const res = await profile.requestErasure({}, request.caller);
    return { request_id: res.requestId, status: res.status };
  });
};
