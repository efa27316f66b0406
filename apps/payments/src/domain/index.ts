import type { PaymentsDeps } from './deps';
import { GatewayCatalog } from './gateways/gateway-catalog';
import { CardTestingDefence } from './payments/card-testing';
import { PaymentRecords } from './payments/payment-records';
import { Payments } from './payments/payments';
import { GatewaySettingsStore } from './settings/gateway-settings';
import { ActionStep } from './test-card/action-step';
import { PaymentMethods } from './tokens/payment-methods';

export type { PaymentsDeps } from './deps';
export type { OrdersPort, SitePort, OrderForPayment } from './ports';

/** The payments domain, wired once per service instance. */
export function createPaymentsDomain(deps: PaymentsDeps) {
  const settings = new GatewaySettingsStore(deps);
  const catalog = new GatewayCatalog(deps, settings);
  const defence = new CardTestingDefence(deps);
  const payments = new Payments(deps, catalog, defence);
  return {
    deps,
    settings,
    catalog,
    defence,
    payments,
    methods: new PaymentMethods(deps, catalog, payments, defence),
    actionStep: new ActionStep(deps, settings, defence),
    records: new PaymentRecords(deps, catalog),
  };
}
export type PaymentsDomain = ReturnType<typeof createPaymentsDomain>;
