import type { GatewaySettings, PaymentGateway } from './gateway';

export interface AvailabilityQuery {
  /** Minor units; undefined = not checked. */
  amountMinor?: number;
  hasSubscription: boolean;
  /** The chosen shipping rate id ("flat_rate:1"); undefined or '' when nothing ships. */
  shippingMethod?: string;
}

/**
 * Spec 2.11: enabled, within max_amount (0 = no cap), and compatible with the
 * cart/order (a subscription needs `subscriptions` support; a gateway's own
 * rule, such as cash on delivery's shipping methods).
 */
export function isAvailable(gateway: PaymentGateway, settings: GatewaySettings, query: AvailabilityQuery): boolean {
  if (!settings.is_enabled) return false;
  if (query.amountMinor !== undefined && gateway.maxAmount > 0 && query.amountMinor > gateway.maxAmount) return false;
  if (query.hasSubscription && !gateway.supports.includes('subscriptions')) return false;
  if (gateway.availableFor && !gateway.availableFor(settings, query)) return false;
  return true;
}

/** Customer-facing title/description: the stored settings override the gateway's defaults. */
export function displayedTitle(gateway: PaymentGateway, settings: GatewaySettings): string {
  return typeof settings.title === 'string' && settings.title ? settings.title : gateway.title;
}

export function displayedDescription(gateway: PaymentGateway, settings: GatewaySettings): string {
  return typeof settings.description === 'string' ? settings.description : gateway.description;
}
