import { protoFieldName, type CallerContext } from '@storefront/grpc-client';
import { fromMinor } from '@storefront/money';
import type { orders } from '@storefront/proto/orders';
import type { Actor } from '../domain/deps';
import type { Address, LineInput, Order, OrderSummary } from '../domain/orders/order-types';
import type { Subscription } from '../domain/subscriptions/subscriptions';
import { needsPayment } from '../domain/status/order-states';

export const actorOf = (caller: CallerContext): Actor => ({ userId: caller.userId, capabilities: caller.capabilities });

export function fromProtoAddress(a: orders.OrderAddress | undefined): Address | undefined {
  if (!a) return undefined;
  return { ...a };
}

/** Proto field names of an address ("address_1") -> the record's ("address1"). */
export function addressFields(names: string[]): Array<keyof Address> {
  return names.map((name) => protoFieldName(name) as keyof Address);
}

const m = (minor: number) => fromMinor(minor);

export function toProtoOrder(o: Order): orders.Order {
  return {
    id: o.id,
    status: o.status,
    paidStatus: o.paidStatus,
    orderKey: o.orderKey,
    currency: o.currency,
    customerId: o.customerId,
    paymentMethod: o.paymentMethod,
    paymentMethodTitle: o.paymentMethodTitle,
    transactionId: o.transactionId,
    customerNote: o.customerNote,
    billing: { ...o.billing },
    shipping: { ...o.shipping },
    lineItems: o.lineItems.map((l) => ({
      id: l.id,
      productId: l.productId,
      priceId: l.priceId,
      variationId: l.variationId,
      name: l.name,
      quantity: l.quantity,
      price: m(l.price),
      subtotal: m(l.subtotal),
      discount: m(l.discount),
      tax: m(l.tax),
      total: m(l.total),
      metaData: l.metaData,
      downloadable: l.downloadable,
      shippingRequired: l.shippingRequired,
      sku: l.sku,
      subscription: l.subscription ?? undefined,
    })),
    shippingLines: o.shippingLines.map((s) => ({
      id: s.id,
      methodId: s.methodId,
      instanceId: s.instanceId,
      rateId: s.rateId,
      label: s.label,
      total: m(s.total),
      totalTax: m(s.totalTax),
    })),
    couponLines: o.couponLines.map((c) => ({ id: c.id, code: c.code, discount: m(c.discount) })),
    taxLines: o.taxLines.map((t) => ({
      id: t.id,
      rateId: t.rateId,
      label: t.label,
      compound: t.compound,
      rate: t.rate,
      taxTotal: m(t.taxTotal),
      shippingTaxTotal: m(t.shippingTaxTotal),
    })),
    subtotal: m(o.subtotal),
    discountTotal: m(o.discountTotal),
    shippingTotal: m(o.shippingTotal),
    totalTax: m(o.totalTax),
    total: m(o.total),
    needsPayment: needsPayment(o),
    dateCreated: o.dateCreated,
    dateModified: o.dateModified,
    datePaid: o.datePaid ?? undefined,
    dateCompleted: o.dateCompleted ?? undefined,
    metaData: o.metaData,
    reservationId: o.reservationId,
    createdVia: o.createdVia,
    itemCount: o.itemCount,
    refundedTotal: m(o.refundedTotal),
  };
}

/** A list summary as a proto order: the summary's fields set, the others empty. */
export function toProtoSummary(o: OrderSummary): orders.Order {
  return {
    id: o.id,
    status: o.status,
    paidStatus: o.paidStatus,
    orderKey: '',
    currency: o.currency,
    customerId: o.customerId,
    paymentMethod: '',
    paymentMethodTitle: '',
    transactionId: '',
    customerNote: '',
    billing: undefined,
    shipping: undefined,
    lineItems: [],
    shippingLines: [],
    couponLines: [],
    taxLines: [],
    subtotal: '',
    discountTotal: '',
    shippingTotal: '',
    totalTax: '',
    total: m(o.total),
    needsPayment: needsPayment(o),
    dateCreated: o.dateCreated,
    dateModified: o.dateModified,
    datePaid: o.datePaid ?? undefined,
    dateCompleted: o.dateCompleted ?? undefined,
    metaData: [],
    reservationId: '',
    createdVia: '',
    itemCount: o.itemCount,
    refundedTotal: '',
  };
}

export function fromProtoLines(items: orders.LineItemInput[]): LineInput[] {
  return items.map((l) => ({
    priceId: l.priceId,
    productId: l.productId,
    variationId: l.variationId,
    quantity: l.quantity,
    metaJson: l.metaJson,
  }));
}

export function toProtoSubscription(s: Subscription): orders.Subscription {
  return {
    id: s.id,
    customerId: s.customerId,
    status: s.status,
    currency: s.currency,
    total: m(s.total),
    billingPeriod: s.billingPeriod,
    billingInterval: s.billingInterval,
    startDate: s.startDate,
    nextPaymentDate: s.nextPaymentDate ?? undefined,
    lastPaymentDate: s.lastPaymentDate ?? undefined,
    endDate: s.endDate ?? undefined,
    trialEndDate: s.trialEndDate ?? undefined,
    paymentMethod: s.paymentMethod,
    paymentMethodTitle: s.paymentMethodTitle,
    parentOrderId: s.parentOrderId,
    relatedOrderIds: s.relatedOrderIds,
    suspensionCount: s.suspensionCount,
    billing: { ...s.billing },
    shipping: { ...s.shipping },
    lines: s.lines.map((l) => ({ ...l, total: m(l.total), tax: m(l.tax) })),
    dateCreated: s.dateCreated,
    dateModified: s.dateModified,
  };
}
