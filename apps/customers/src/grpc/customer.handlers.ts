import { customers } from '@storefront/proto/customers';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { CustomerFields } from '../domain/customer-admin';
import { fromAddress, fromAddressPatch, toProtoCustomer } from './mappers';

const metaUpdates = (meta: customers.MetaUpdate[]) => meta.map((m) => ({ key: m.key, value: m.value ?? null }));

export function customerHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.CustomerServiceService> {
  return {
    async listCustomers(req) {
      const { users, total } = await domain.admin.list(req);
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
