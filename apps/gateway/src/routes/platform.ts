import type { FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { forbidden, unauthorized } from '@storefront/errors';
import type { customers } from '@storefront/proto/customers';
import { clearSessionCookie } from '../http/cookies';
import { formatDateTime } from '../http/dates';
import { documented, errorResponses } from '../http/responses';
import { DateTime } from '../http/schemas';
import { sessionIdOf } from '../auth/session-cookie';
import type { RouteModule } from '../context';

const AppPasswordBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' }) },
  { additionalProperties: false },
);
const UuidParams = Type.Object({ uuid: Type.String({ maxLength: 64 }) });

const PublishableKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 255 })),
    allowed_origins: Type.Optional(
      Type.Array(Type.String({ maxLength: 255 }), { maxItems: 50, description: 'Origins (scheme://host[:port]) that may use the key cross-origin.' }),
    ),
  },
  { additionalProperties: false },
);
const KeyIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

const SiteSettingsBody = Type.Object(
  {
    users_can_register: Type.Optional(Type.Boolean()),
    store_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    site_url: Type.Optional(Type.String({ format: 'uri', maxLength: 500 })),
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    prices_include_tax: Type.Optional(Type.Boolean()),
    logo_url: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const doc = documented('customers');

export const SiteSettingsSchema = Type.Object(
  {
    users_can_register: Type.Boolean(),
    store_name: Type.String(),
    site_url: Type.String({ description: 'Base of storefront links; "" means the URL the API is served from.' }),
    currency: Type.String({ description: 'ISO 4217 code.' }),
    prices_include_tax: Type.Boolean(),
    logo_url: Type.String(),
  },
  { title: 'SiteSettings' },
);

const ApplicationPasswordSchema = Type.Object(
  {
    uuid: Type.String(),
    name: Type.String(),
    created: DateTime(),
    last_used: DateTime('When it last authenticated a request; null: never.'),
  },
  { title: 'ApplicationPassword' },
);
const NewApplicationPasswordSchema = Type.Object(
  {
    ...ApplicationPasswordSchema.properties,
    password: Type.String({ description: 'Shown once: use it as the Basic password with your login.' }),
  },
  { title: 'NewApplicationPassword' },
);
const DeletedApplicationPassword = Type.Object(
  { deleted: Type.Boolean(), previous: ApplicationPasswordSchema },
  { title: 'DeletedApplicationPassword' },
);
const PublishableKeySchema = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    key: Type.String({ description: 'pk_...: public, sent by embedded pages as X-Shop-Embed-Key, X-Shop-Pk or ?pk=.' }),
    allowed_origins: Type.Array(Type.String()),
    created: DateTime(),
  },
  { title: 'PublishableKey' },
);
const DeletedPublishableKey = Type.Object({ deleted: Type.Boolean(), previous: PublishableKeySchema }, { title: 'DeletedPublishableKey' });
const NonceSchema = Type.Object({ nonce: Type.String({ description: 'Send as X-Platform-Nonce with the session cookie.' }) }, { title: 'Nonce' });
const LoggedOut = Type.Object({ logged_out: Type.Boolean() }, { title: 'LoggedOut' });

export function siteSettingsResource(s: customers.SiteSettings | undefined) {
  return {
    users_can_register: s?.usersCanRegister ?? true,
    store_name: s?.storeName ?? '',
    site_url: s?.siteUrl ?? '',
    currency: s?.currency ?? '',
    prices_include_tax: s?.pricesIncludeTax ?? false,
    logo_url: s?.logoUrl ?? '',
  };
}

function appPasswordResource(p: customers.ApplicationPassword | undefined) {
  return { uuid: p?.uuid, name: p?.name, created: formatDateTime(p?.created), last_used: formatDateTime(p?.lastUsed) };
}

function publishableKeyResource(k: customers.PublishableKey | undefined) {
  return { id: k?.id, name: k?.name, key: k?.key, allowed_origins: k?.allowedOrigins ?? [], created: formatDateTime(k?.created) };
}

/** The host platform's own routes (contract "Host platform"): nonce, logout, application passwords, site options. */
export const platformRoutes: RouteModule = (app, ctx) => {
  const { auth, settings } = ctx.clients.customers;

  // The nonce needs only the cookie: it is what a same-origin page uses to obtain its first nonce.
  app.get(
    '/nonce',
    {
      config: { access: 'public' },
      schema: doc('getNonce', 'Get a REST nonce for the session cookie', { 200: NonceSchema, ...errorResponses(401) }),
    },
   async (request: FastifyRequest) => {
    const token = request.sessionToken;
    if (!token) throw unauthorized('rest_not_logged_in', 'You are not currently logged in.');
    const { session } = await auth.resolveSession({ sessionId: token }, request.caller).catch(() => ({ session: undefined }));
    if (!session) throw unauthorized('rest_not_logged_in', 'You are not currently logged in.');
    return { nonce: ctx.nonces.issue(token) };
  });

  app.post(
    '/logout',
    { config: { access: 'public' }, schema: doc('logOut', 'Log out (ends the session; the cookie needs its nonce)', { 200: LoggedOut, ...errorResponses(401, 403) }) },
   async (request, reply) => {
    const token = request.sessionToken;
    if (!token) {
      clearSessionCookie(request, reply);
      throw unauthorized('rest_not_logged_in', 'You are not currently logged in.');
    }
    // A cookie alone is not enough (cross-site requests carry it): logging out needs the nonce.
    if (!request.caller.userId) throw forbidden('rest_cookie_invalid_nonce', 'Cookie check failed.');
    clearSessionCookie(request, reply);
    await auth.endSession({ sessionId: token }, request.caller);
    ctx.cache.delete(`s:${sessionIdOf(token)}`);
    return { logged_out: true };
  });

  const userConfig = { access: 'platform_user' as const };
  app.get(
    '/users/me/application-passwords',
    {
      config: userConfig,
      schema: doc('listApplicationPasswords', 'List your application passwords', { 200: Type.Array(ApplicationPasswordSchema) }),
    },
   async (request) => {
    const { applicationPasswords } = await auth.listApplicationPasswords({}, request.caller);
    return applicationPasswords.map(appPasswordResource);
  });

  app.post(
    '/users/me/application-passwords',
    {
      config: userConfig,
      schema: {
        ...doc('createApplicationPassword', 'Create an application password (for HTTP Basic)', {
          201: NewApplicationPasswordSchema,
          ...errorResponses(409, 422),
        }),
        body: AppPasswordBody,
      },
    },
   async (request, reply) => {
    const res = await auth.createApplicationPassword({ name: request.body.name }, request.caller);
    reply.code(201);
    return { ...appPasswordResource(res.applicationPassword), password: res.password };
  });

  app.delete(
    '/users/me/application-passwords/:uuid',
    {
      config: userConfig,
      schema: {
        ...doc('deleteApplicationPassword', 'Revoke an application password', { 200: DeletedApplicationPassword }),
        params: UuidParams,
      },
    },
    async (request) => {
      const res = await auth.revokeApplicationPassword({ uuid: request.params.uuid }, request.caller);
      ctx.cache.evictUser(request.caller.userId);
      return { deleted: true, previous: appPasswordResource(res.applicationPassword) };
    },
  );

  const adminConfig = { access: 'admin' as const };
  const keys = ctx.publishableKeys;
  // The embed addon's publishable keys (contract "Host platform"); without the addon the routes do not exist.
  if (keys) {
    const client = ctx.clients.customers.publishableKey;
    app.post(
      '/publishable-keys',
      {
        config: adminConfig,
        schema: {
          ...doc('createPublishableKey', 'Create a publishable key for an embedded cart and checkout', { 201: PublishableKeySchema, ...errorResponses(400) }),
          body: PublishableKeyBody,
        },
      },
      async (request, reply) => {
        const { name, allowed_origins } = request.body;
        const res = await client.createPublishableKey({ name: name ?? '', allowedOrigins: allowed_origins ?? [] }, request.caller);
        keys.invalidate(); // this replica at once; others on the change event
        reply.code(201);
        return publishableKeyResource(res.publishableKey);
      },
    );
    app.get(
      '/publishable-keys',
      { config: adminConfig, schema: doc('listPublishableKeys', 'List the active publishable keys', { 200: Type.Array(PublishableKeySchema) }) },
      async (request) => (await client.listPublishableKeys({}, request.caller)).publishableKeys.map(publishableKeyResource),
    );
    app.delete(
      '/publishable-keys/:id',
      {
        config: adminConfig,
        schema: {
          ...doc('deletePublishableKey', 'Revoke a publishable key (its requests are denied from now on)', { 200: DeletedPublishableKey, ...errorResponses(404) }),
          params: KeyIdParams,
        },
      },
      async (request) => {
        const res = await client.revokePublishableKey({ id: request.params.id }, request.caller);
        keys.invalidate();
        return { deleted: true, previous: publishableKeyResource(res.publishableKey) };
      },
    );
  }

  app.get(
    '/settings',
    { config: adminConfig, schema: doc('getSiteSettings', 'Get the site options', { 200: SiteSettingsSchema }) },
   async (request) =>
    siteSettingsResource((await settings.getSiteSettings({}, request.caller)).settings),
  );
  app.route({
    method: ['PATCH', 'PUT', 'POST'],
    url: '/settings',
    config: adminConfig,
    schema: {
      ...doc('updateSiteSettings', 'Update the site options', { 200: SiteSettingsSchema, ...errorResponses(422) }),
      body: SiteSettingsBody,
    },
    handler: async (request: FastifyRequest) => {
      const b = request.body as Static<typeof SiteSettingsBody>;
      const res = await settings.updateSiteSettings(
        {
          usersCanRegister: b.users_can_register,
          storeName: b.store_name,
          siteUrl: b.site_url,
          currency: b.currency,
          pricesIncludeTax: b.prices_include_tax,
          logoUrl: b.logo_url,
        },
        request.caller,
      );
      ctx.site.invalidate(); // this replica at once; others on the update event
      return siteSettingsResource(res.settings);
    },
  });
};
