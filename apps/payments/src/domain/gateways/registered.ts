import type { Addon } from '@storefront/service-kit';
import { TestCardGateway } from '../test-card/test-card-gateway';
import { BankTransferGateway, CashOnDeliveryGateway } from './offline';
import { GatewayRegistry } from './registry';

/**
 * The gateways of this shop. Offline gateways register eagerly (a class
 * list); the card addon's gateway registers lazily (id -> class), so it is
 * built only when first used. Add a gateway here, nowhere else.
 */
export function registeredGateways(addons: readonly Addon[]): GatewayRegistry {
  const registry = new GatewayRegistry().registerEager([CashOnDeliveryGateway, BankTransferGateway]);
  if (addons.includes('card')) registry.registerLazy({ test_card: TestCardGateway });
  return registry;
}
