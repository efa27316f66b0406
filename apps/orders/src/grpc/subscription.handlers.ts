import type { orders } from '@storefront/proto/orders';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { OrdersDomain } from '../domain';
import type { Subscription } from '../domain/subscriptions/subscriptions';
import { parseBound } from '../domain/orders/list-query';
import { actorOf, toProtoSubscription } from './mappers';

export function subscriptionHandlers(domain: OrdersDomain): ServiceHandlers<typeof orders.SubscriptionServiceService> {
  const { subscriptions } = domain;
  const page = (p: { subscriptions: Subscription[]; total: number }) => ({ subscriptions: p.subscriptions.map(toProtoSubscription), total: p.total });
  return {
    async listMySubscriptions(req, caller) {
      return page(await subscriptions.listMine(actorOf(caller), req.page, req.perPage, req.status));
    },
    async getMySubscription(req, caller) {
      return { subscription: toProtoSubscription(await subscriptions.getMine(actorOf(caller), req.id)) };
    },
    async transitionMySubscription(req, caller) {
      return { subscription: toProtoSubscription(await subscriptions.transitionMine(actorOf(caller), req.id, req.action)) };
    },
    async listSubscriptions(req) {
      return page(
        await subscriptions.list({
          page: req.page,
          perPage: req.perPage,
          status: req.status,
          customerId: req.customerId,
          after: parseBound(req.after, 'after'),
          before: parseBound(req.before, 'before'),
        }),
      );
    },
    async getSubscription(req) {
      return { subscription: toProtoSubscription(await subscriptions.get(req.id)) };
    },
  };
}
