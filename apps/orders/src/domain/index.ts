import type { OrdersDeps } from './deps';
import { Analytics } from './analytics/analytics';
import { LatePayments } from './orders/late-payment';
import { Orders } from './orders/orders';
import { Subscriptions } from './subscriptions/subscriptions';

export type { OrdersDeps, Actor } from './deps';

/** The orders domain, wired once per service instance. */
export function createOrdersDomain(deps: OrdersDeps) {
  const latePayments = new LatePayments(deps);
  return { deps, orders: new Orders(deps, latePayments), latePayments, analytics: new Analytics(deps), subscriptions: new Subscriptions(deps) };
}
export type OrdersDomain = ReturnType<typeof createOrdersDomain>;
