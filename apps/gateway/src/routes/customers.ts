import { Type, type Static } from 'typebox';
import { badRequest, DomainError } from '@storefront/errors';
import { customers } from '@storefront/proto/customers';
import { setPaginationHeaders } from '../http/pagination';
import { DeletedSchema, documented, errorResponses } from '../http/responses';
import { AddressPatch, Context, Force, IdList, IdParams, MetaTrimming, Page, PerPage } from '../http/schemas';
import { addressPatch } from '../resources/address';
import { customerResource, CustomerSchema } from '../resources/customer';
import type { RouteModule } from '../context';

const ListQuery = Type.Object({
  page: Page,
  per_page: PerPage(10),
  search: Type.String({ default: '', maxLength: 200 }),
  orderby: Type.Union(
    ['id', 'include', 'name', 'registered_date', 'email', 'username'].map((v) => Type.Literal(v)),
    { default: 'name' },
  ),
  order: Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'asc' }),
  include: IdList('Limit result set to specific IDs.'),
  exclude: IdList('Ensure result set excludes specific IDs.'),
  roles: Type.Array(Type.String({ maxLength: 60 }), {
    maxItems: 20,
    default: [],
    description: 'Limit to users with any of these roles (default shop_customer; "all" for every role).',
  }),
  context: Context,
  ...MetaTrimming,
});

const MetaInput = Type.Array(Type.Object({ key: Type.String({ minLength: 1, maxLength: 255 }), value: Type.Unknown() }), {
  maxItems: 100,
});

const writable = {
  email: Type.String({ format: 'email', maxLength: 100 }),
  username: Type.String({ minLength: 1, maxLength: 60 }),
  password: Type.String({ minLength: 1, maxLength: 4096 }),
  first_name: Type.String({ maxLength: 100 }),
  last_name: Type.String({ maxLength: 100 }),
  display_name: Type.String({ maxLength: 250 }),
  roles: Type.Array(Type.String({ maxLength: 60 }), { maxItems: 10 }),
  billing: AddressPatch,
  shipping: AddressPatch,
  meta_data: MetaInput,
  meta: Type.Record(Type.String({ maxLength: 255 }), Type.Unknown()),
};

const CreateBody = Type.Object(
  {
    ...Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, Type.Optional(v)])),
    email: writable.email,
    username: writable.username,
    id: Type.Optional(Type.Unknown({ description: 'Not allowed: customers are created without an id.' })),
  },
  { additionalProperties: false },
);
const UpdateBody = Type.Partial(Type.Object(writable), { additionalProperties: false });
type UpdateFields = Static<typeof UpdateBody>;

const DeleteQuery = Type.Object({
  force: Force("Required to be true, as users do not support trashing."),
  reassign: Type.Integer({ minimum: 0, maximum: 2_147_483_647, default: 0, description: 'Reassign the deleted user\'s records to this user ID.' }),
});

/** meta_data array and/or meta object -> proto meta updates (null removes a key). */
function metaUpdates(body: UpdateFields): customers.MetaUpdate[] {
  const fromObject = Object.entries(body.meta ?? {}).map(([key, value]) => ({ key, value }));
  return [...(body.meta_data ?? []), ...fromObject].map((m) => ({ key: m.key, value: m.value }));
}

function fields(body: UpdateFields) {
  return {
    email: body.email,
    password: body.password,
    firstName: body.first_name,
    lastName: body.last_name,
    displayName: body.display_name,
    billing: addressPatch(body.billing),
    shipping: addressPatch(body.shipping),
    meta: metaUpdates(body),
  };
}

const doc = documented('customers');
const DeletedCustomer = DeletedSchema(CustomerSchema, 'DeletedCustomer');

/** Admin customers collection (spec 4.8). */
export const customerRoutes: RouteModule = (app, ctx) => {
  const client = ctx.clients.customers.customer;
  const config = { access: 'admin' as const, itemSchema: CustomerSchema };

  app.get(
    '/customer',
    {
      config,
      schema: { ...doc('listCustomers', 'List customers', { 200: Type.Array(CustomerSchema) }), querystring: ListQuery },
    },
    async (request, reply) => {
    const q = request.query;
    const result = await client.listCustomers(
      {
        page: q.page,
        perPage: q.per_page,
        search: q.search,
        orderby: q.orderby,
        order: q.order,
        include: q.include,
        exclude: q.exclude,
        roles: q.roles,
      },
      request.caller,
    );
    setPaginationHeaders(request, reply, { total: result.total, page: q.page, perPage: q.per_page });
    return result.customers.map((c) => customerResource(c, request, q.context));
  });

  app.post(
    '/customer',
    {
      config,
      schema: {
        ...doc('createCustomer', 'Create a customer', { 201: CustomerSchema, ...errorResponses(409, 422) }),
        body: CreateBody,
      },
    },
    async (request, reply) => {
    const body = request.body as Static<typeof CreateBody> & UpdateFields;
    if (body.id !== undefined) {
      throw badRequest('rest_customer_exists', 'Cannot create existing resource.');
    }
    const f = fields(body);
    const { customer } = await client.createCustomer(
      {
        ...f,
        email: body.email,
        username: body.username,
        password: body.password ?? '',
        firstName: f.firstName ?? '',
        lastName: f.lastName ?? '',
        displayName: f.displayName ?? '',
        roles: body.roles ?? [],
        billing: customers.Address.fromPartial(f.billing ?? {}),
        shipping: customers.Address.fromPartial(f.shipping ?? {}),
      },
      request.caller,
    );
    reply.code(201).header('Location', `/shop/v1/customer/${customer!.id}`);
    return customerResource(customer!, request, 'edit');
  });

  app.get(
    '/customer/:id',
    {
      config,
      schema: {
        ...doc('getCustomer', 'Get a customer', { 200: CustomerSchema }),
        params: IdParams,
        querystring: Type.Object({ context: Context, ...MetaTrimming }),
      },
    },
    async (request) => {
      const { customer } = await client.getCustomer({ id: request.params.id }, request.caller);
      return customerResource(customer!, request, request.query.context);
    },
  );

  app.route({
    method: ['PUT', 'PATCH'],
    url: '/customer/:id',
    config,
    schema: {
      ...doc('updateCustomer', 'Update a customer', { 200: CustomerSchema, ...errorResponses(409, 422) }),
      params: IdParams,
      body: UpdateBody,
    },
    handler: async (request) => {
      const { id } = request.params as Static<typeof IdParams>;
      const body = request.body as UpdateFields;
      const { customer } = await client.updateCustomer(
        { id, ...fields(body), username: body.username, roles: body.roles ?? [], setRoles: body.roles !== undefined },
        request.caller,
      );
      return customerResource(customer!, request, 'edit');
    },
  });

  app.delete(
    '/customer/:id',
    {
      config,
      schema: {
        ...doc('deleteCustomer', 'Delete a customer', { 200: DeletedCustomer, ...errorResponses(501) }),
        params: IdParams,
        querystring: DeleteQuery,
      },
    },
    async (request) => {
    const force = request.query.force || (request.body as { force?: unknown } | undefined)?.force === true;
    if (!force) {
      throw new DomainError('rest_trash_not_supported', 501, "Users do not support trashing. Set 'force' to true to delete.");
    }
    const { previous } = await client.deleteCustomer(
      { id: request.params.id, reassign: request.query.reassign },
      request.caller,
    );
    return { deleted: true, previous: customerResource(previous!, request, 'edit') };
  });
};
