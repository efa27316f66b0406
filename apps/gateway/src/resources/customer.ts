import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { customers } from '@storefront/proto/customers';
import { formatDateTime } from '../http/dates';
import { resourceLinks } from '../http/links';
import { Address, DateTime } from '../http/schemas';
import { LinksSchema } from '../http/responses';
import { restAddress } from './address';

/** JSON Schema of a customer as the REST API shows it (OPTIONS and OpenAPI). */
export const CustomerStats = Type.Object(
  { total_orders: Type.Integer(), total_spent: Type.Number(), total_downloads: Type.Integer() },
  { title: 'CustomerStats' },
);

export const CustomerSchema = Type.Object({
  id: Type.Integer({ readOnly: true }),
  date_created: DateTime(),
  date_modified: DateTime(),
  email: Type.String({ format: 'email' }),
  username: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  display_name: Type.String(),
  roles: Type.Array(Type.String()),
  billing: Address,
  shipping: Address,
  is_paying_customer: Type.Boolean({ readOnly: true }),
  avatar_url: Type.String({ readOnly: true }),
  stats: CustomerStats,
  meta_data: Type.Array(Type.Object({ id: Type.Integer(), key: Type.String(), value: Type.Unknown() })),
  capabilities: Type.Optional(Type.Record(Type.String(), Type.Boolean(), { description: 'edit context only' })),
  _links: LinksSchema,
}, { title: 'Customer' });

export function customerResource(c: customers.Customer, request: FastifyRequest, context: string) {
  return {
    id: c.id,
    date_created: formatDateTime(c.registeredAt),
    date_modified: formatDateTime(c.modifiedAt),
    email: c.email,
    username: c.username,
    first_name: c.firstName,
    last_name: c.lastName,
    display_name: c.displayName,
    roles: c.roles,
    billing: restAddress(c.billing),
    shipping: restAddress(c.shipping),
    is_paying_customer: (c.stats?.totalOrders ?? 0) > 0,
    avatar_url: c.avatarUrl,
    stats: {
      total_orders: c.stats?.totalOrders ?? 0,
      total_spent: Number(c.stats?.totalSpent ?? 0),
      total_downloads: c.stats?.totalDownloads ?? 0,
    },
    meta_data: c.meta.map((m) => ({ id: m.id, key: m.key, value: m.value ?? null })),
    ...(context === 'edit' ? { capabilities: Object.fromEntries(c.capabilities.map((cap) => [cap, true])) } : {}),
    _links: resourceLinks(request, `/shop/v1/customer/${c.id}`, '/shop/v1/customer'),
  };
}
