import type { orders } from '@storefront/proto/orders';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { OrdersDomain } from '../domain';
import { parseListQuery } from '../domain/orders/list-query';
import { actorOf, addressFields, fromProtoAddress, fromProtoLines, toProtoOrder, toProtoSummary } from './mappers';

export function adminHandlers(domain: OrdersDomain): ServiceHandlers<typeof orders.OrderAdminServiceService> {
  const { orders: o } = domain;
  return {
    async listOrders(req) {
      const query = parseListQuery(req);
      if (req.summary) {
        const page = await o.listSummaries(query);
        return { orders: page.orders.map(toProtoSummary), total: page.total, etag: '', notModified: false };
      }
      const page = await o.list(query, req.ifNoneMatch);
      return { orders: page.orders.map(toProtoOrder), total: page.total, etag: page.etag, notModified: page.notModified };
    },
    async getOrder(req) {
      const order = toProtoOrder(await o.get(req.id));
      const history = req.includeHistory ? await o.history(req.id) : [];
      return {
        order,
        history: history.map((h) => ({
          fromStatus: h.fromStatus,
          toStatus: h.toStatus,
          byUserId: h.byUserId,
          cause: h.cause,
          note: h.note,
          changedAt: h.changedAt,
        })),
      };
    },
    async adminCreateOrder(req, caller) {
      const order = await o.adminCreate(
        {
          ...req,
          billing: fromProtoAddress(req.billing),
          shipping: fromProtoAddress(req.shipping),
          lineItems: fromProtoLines(req.lineItems),
        },
        actorOf(caller),
      );
      return { order: toProtoOrder(order) };
    },
    async updateOrder(req, caller) {
      const order = await o.update(
        req.id,
        {
          ...req,
          billing: fromProtoAddress(req.billing),
          shipping: fromProtoAddress(req.shipping),
          billingFields: addressFields(req.billingFields),
          shippingFields: addressFields(req.shippingFields),
          lineItems: fromProtoLines(req.lineItems),
        },
        actorOf(caller),
      );
      return { order: toProtoOrder(order) };
    },
    async deleteOrder(req) {
      return { previous: toProtoOrder(await o.delete(req.id)) };
    },
    async addLineItems(req) {
      return { order: toProtoOrder(await o.addLines(req.orderId, fromProtoLines(req.items))) };
    },
    async removeLineItems(req) {
      return { order: toProtoOrder(await o.removeLines(req.orderId, req.itemIds)) };
    },
    async updateLineItem(req) {
      return { order: toProtoOrder(await o.updateLine(req.orderId, req.itemId, { quantity: req.quantity, metaJson: req.metaJson })) };
    },
  };
}

export function customerHandlers(domain: OrdersDomain): ServiceHandlers<typeof orders.CustomerOrderServiceService> {
  const { orders: o } = domain;
  return {
    async listMyOrders(req, caller) {
      const page = await o.listMine(actorOf(caller), req.page, req.perPage, req.statuses);
      return { orders: page.orders.map(toProtoSummary), total: page.total };
    },
    async getMyOrder(req, caller) {
      return { order: toProtoOrder(await o.getMine(actorOf(caller), req.id)) };
    },
    async cancelMyOrder(req, caller) {
      return { order: toProtoOrder(await o.cancelMine(actorOf(caller), req.id)) };
    },
    async payMyOrder(req, caller) {
      return { order: toProtoOrder(await o.payMine(actorOf(caller), req.id)) };
    },
  };
}
