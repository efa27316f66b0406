import { payments } from '@storefront/proto/payments';
import type { GatewayView } from '../domain/gateways/gateway-catalog';
import type { PaymentRecordView } from '../domain/payments/payment-records';
import { minorToAmount } from '../domain/payments/amounts';
import type { TokenView } from '../domain/tokens/payment-methods';

export function toGatewaySummary(v: GatewayView): payments.GatewaySummary {
  return {
    id: v.gateway.id,
    title: v.title,
    description: v.description,
    publishableKey: v.publishableKey,
    supports: [...v.gateway.supports],
    hasFields: v.gateway.hasFields,
    supportsIntents: v.supportsIntents,
    icon: v.gateway.icon,
    index: v.index,
  };
}

export function toGatewayDetail(v: GatewayView): payments.GatewayDetail {
  return {
    id: v.gateway.id,
    title: v.title,
    description: v.description,
    methodTitle: v.gateway.methodTitle,
    methodDescription: v.gateway.methodDescription,
    icon: v.gateway.icon,
    hasFields: v.gateway.hasFields,
    supports: [...v.gateway.supports],
    index: v.index,
    maxAmount: minorToAmount(v.gateway.maxAmount, 'USD'),
    savedCards: v.savedCards,
    verifyConfig: v.gateway.verifyConfig,
    enabled: v.enabled,
    supportsIntents: v.supportsIntents,
    adminFieldsJson: JSON.stringify(v.gateway.adminFields),
    settingsJson: JSON.stringify(v.maskedSettings),
    available: v.available,
  };
}

export function toSavedToken(t: TokenView): payments.SavedToken {
  return {
    id: t.id,
    gateway: t.gateway,
    displayName: t.displayName,
    isDefault: t.isDefault,
    brand: t.brand,
    last4: t.last4,
    expMonth: t.expMonth,
    expYear: t.expYear,
    createdAt: t.createdAt,
  };
}

export function toPaymentRecord(r: PaymentRecordView): payments.PaymentRecord {
  return {
    orderId: r.orderId,
    status: r.status,
    paidStatus: r.paidStatus,
    paymentMethod: r.paymentMethod,
    transactionId: r.transactionId,
    amount: r.amount,
    currency: r.currency,
    gatewayId: r.gatewayId,
    gatewayTitle: r.gatewayTitle,
    attempts: r.attempts.map((a) => ({
      id: a.id,
      gatewayId: a.gatewayId,
      amount: minorToAmount(a.amountMinor, a.currency),
      currency: a.currency,
      outcome: a.outcome,
      transactionId: a.transactionId,
      declineReason: a.declineReason,
      createdAt: a.createdAt.toISOString(),
    })),
  };
}
