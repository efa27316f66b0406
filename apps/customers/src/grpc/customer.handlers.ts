import { customers } from '@storefront/proto';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { CustomerFields } from '../domain/customer-admin';
import { CUSTOMER_ROLE } from '@storefront/access';
import type { UserListQuery } from '../persistence/users.repository';
import { fromAddress, fromAddressPatch, toProtoCustomer } from './mappers';

const ORDERBY = new Set(['id', 'name', 'username', 'email', 'registered_date', 'include']);

function listQuery(req: customers.ListCustomersRequest): UserListQuery {
  const roles = req.roles.length ? req.roles : [CUSTOMER_ROLE];
  return {
    page: Math.max(1, req.page || 1),
    perPage: Math.min(100, Math.max(1, req.perPage || 10)),
    search: req.search,
    orderby: (ORDERBY.has(req.orderby) ? req.orderby : 'name') as UserListQuery['orderby'],
    order: req.order === 'desc' ? 'desc' : 'asc',
    include: req.include,
    exclude: req.exclude,
    roles: roles.includes('all') ? [] : roles,
  };
}

const metaUpdates = (meta: customers.MetaUpdate[]) => meta.map((m) => ({ key: m.key, value: m.value ?? null }));

export function customerHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.CustomerServiceService> {
  return {
    async listCustomers(req) {
      const { users, total } = await domain.admin.list(listQuery(req));
      return { customers: users.map(toProtoCustomer), total };
    },
    async getCustomer(req) {
      return { customer: toProtoCustomer(await domain.admin.get(req.id)) };
    },
    async createCustomer(req) {
      const user = await domain.admin.create({
        email: req.email,
        username: req.username,
        password: req.password,
        firstName: req.firstName,
        lastName: req.lastName,
        displayName: req.displayName,
        roles: req.roles,
        billing: fromAddress(req.billing),
        shipping: fromAddress(req.shipping),
        meta: metaUpdates(req.meta),
      });
      return { customer: toProtoCustomer(user) };
    },
    async updateCustomer(req) {
      const fields: CustomerFields = {
        email: req.email,
        username: req.username,
        password: req.password,
        firstName: req.firstName,
        lastName: req.lastName,
        displayName: req.displayName,
        roles: req.setRoles ? req.roles : undefined,
        billing: fromAddressPatch(req.billing),
        shipping: fromAddressPatch(req.shipping),
        meta: metaUpdates(req.meta),
      };
      return { customer: toProtoCustomer(await domain.admin.update(req.id, fields)) };
    },
    async deleteCustomer(req) {
      return { previous: toProtoCustomer(await domain.admin.delete(req.id, req.reassign)) };
    },
    async findExistingCustomers(req) {
      return { ids: await domain.admin.existing(req.ids) };
    },
  };
}
