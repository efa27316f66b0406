import type { OrdersDeps } from './deps';
import { Analytics } from './analytics/analytics';
import { Orders } from './orders/orders';

export type { OrdersDeps, Actor } from './deps';

/** The orders domain, wired once per service instance. */
export function createOrdersDomain(deps: OrdersDeps) {
  return { deps, orders: new Orders(deps), analytics: new Analytics(deps) };
}
export type OrdersDomain = ReturnType<typeof createOrdersDomain>;
