import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isDecimal, toMinor } from '@storefront/money';
import { unprocessable } from '@storefront/errors';
import {
  deleteOrder,
  findIdByCheckoutKey,
  findOrder,
  insertOrder,
  insertOrderWithEvents,
  listOrderVersions,
  lockOrderVersion,
  newOrderIds,
  type NewOrderIds,
  ordersAt,
  listOrderSummaries,
  readOrder,
  readOrderVersion,
  replaceContent,
  statusHistory,
  updateOrderFields,
  updateOrderIfUnchanged,
  type OrderFieldChanges,
} from '../../persistence/orders.repository';
import { intoOutbox, intoRows, type OutboxRow } from '@storefront/events';
import { OrderDocuments } from '../../persistence/order-documents';
import { JustCreated } from './just-created';
import { orderPageEtag } from './list-query';
import { can, SYSTEM, type Actor, type OrdersDeps } from '../deps';
import { assertBillingEmail, assertCustomerExists, assertNoNul, editConflict, invalidOrderInput, lineItemNotFound, orderNotFound } from '../errors';
import {
  alreadyPaid,
  notPayable,
  invalidStatus,
  isEditable,
  isOrderStatus,
  needsPayment,
  notEditable,
  paidStatusFor,
  planCustomerCancel,
  planTransition,
  type OrderStatus,
  type TransitionPlan,
} from '../status/order-states';
import { refundKey, refundThroughGateway } from './gateway-refund';
import { isLatePayment, LatePayments } from './late-payment';
import { applyTransition, recordDeleted, recordPlaced, transitionWrite, type TransitionExtras } from './lifecycle';
import type {
  Address,
  LineInput,
  NewOrder,
  Order,
  OrderContent,
  OrderListQuery,
  OrderPage,
  OrderSummary,
  StatusChange,
  SubscriptionTerms,
} from './order-types';
import { emptyAddress } from './order-types';
import { AdminOrderStock } from './admin-stock';
import { keptCoupons, lineSubtotal, parseMeta, Pricing } from './pricing';
import { validTerms } from '../subscriptions/schedule';

/** What the checkout (cart's saga) sends to create an order; amounts are decimal strings. */
export interface CheckoutOrderInput {
  checkoutKey: string;
  draftOrderId: number;
  status: string;
  customerId: number;
  currency: string;
  billing: Address | undefined;
  shipping: Address | undefined;
  customerNote: string;
  paymentMethod: string;
  paymentMethodTitle: string;
  createdVia: string;
  reservationId: string;
  couponCodes: string[];
  lineItems: Array<{
    productId: number;
    priceId: number;
    variationId: number;
    name: string;
    quantity: number;
    price: string;
    subtotal: string;
    discount: string;
    tax: string;
    total: string;
    downloadable: boolean;
    shippingRequired: boolean;
    sku: string;
    metaJson: string;
    subscription?: SubscriptionTerms;
  }>;
  shippingLines: Array<{ methodId: string; instanceId: number; rateId: string; label: string; total: string; totalTax: string }>;
  couponLines: Array<{ code: string; discount: string }>;
  taxLines: Array<{ rateId: number; label: string; compound: boolean; rate: string; taxTotal: string; shippingTaxTotal: string }>;
  subtotal: string;
  discountTotal: string;
  shippingTotal: string;
  totalTax: string;
  total: string;
}

export interface AdminOrderInput {
  status: string;
  currency: string;
  customerId: number;
  paymentMethod: string;
  paymentMethodTitle: string;
  customerNote: string;
  billing: Address | undefined;
  shipping: Address | undefined;
  lineItems: LineInput[];
  metaData: Array<{ key: string; valueJson: string }>;
  setPaid: boolean;
  transactionId: string;
}

export interface OrderUpdate {
  status?: string;
  currency?: string;
  customerId?: number;
  paymentMethod?: string;
  paymentMethodTitle?: string;
  customerNote?: string;
  billing?: Address;
  shipping?: Address;
  /** The address fields the request sets (others stay); empty: the whole address. */
  billingFields?: Array<keyof Address>;
  shippingFields?: Array<keyof Address>;
  lineItems: LineInput[];
  metaData: Array<{ key: string; valueJson: string }>;
  setPaid: boolean;
  transactionId?: string;
  reason: string;
}

/** `given` over `stored`: only `fields` when named (a partial PATCH), else the whole address. */
function mergeAddress(stored: Address, given: Address | undefined, fields: Array<keyof Address> | undefined): Address | undefined {
  if (!given || !fields?.length) return given;
  const merged = { ...stored };
  for (const field of fields) if (field in given) merged[field] = given[field];
  return merged;
}

export type PaymentOutcome = 'paid' | 'on_hold' | 'failed' | 'requires_action';

const newOrderKey = () => `order_${randomBytes(12).toString('base64url')}`;

function money(value: string, field: string): number {
  if (!value) return 0;
  if (!isDecimal(value)) throw invalidOrderInput({ [field]: `"${value}" is not a decimal amount.` });
  try {
    return toMinor(value);
  } catch {
    throw invalidOrderInput({ [field]: `"${value}" has more than 2 decimal places.` });
  }
}

const noNul = (value: string) => !value.includes('\u0000');

/** Where a gateway's outcome moves an unpaid order: paid ships (processing) or completes; otherwise the outcome. */
const paymentTarget = (order: Order, outcome: string): OrderStatus =>
  outcome === 'paid' ? paidStatusFor(order.lineItems.some((l) => l.shippingRequired)) : (outcome as OrderStatus);

/** The first status-history row of a new order. */
const created = (status: OrderStatus, actor: Actor) => ({ fromStatus: '' as const, toStatus: status, byUserId: actor.userId, cause: 'created', note: '' });

/** Another writer changed the order after it was priced: price again. */
const STALE = new Error('order changed since it was priced');

/** Orders: the record, its life through the state machine, the admin and the customer views. */
export class Orders {
  private readonly pricing: Pricing;
  private readonly adminStock: AdminOrderStock;
  /** Whole orders the admin list has read, reused while their row version holds. */
  private readonly documents = new OrderDocuments();
  /** Checkout orders just inserted here, so recording their payment needs no read. */
  private readonly justCreated = new JustCreated();
  private readonly drawIds: (lineCount: number) => Promise<NewOrderIds>;

  constructor(
    private readonly deps: OrdersDeps,
    private readonly latePayments: LatePayments,
  ) {
    this.pricing = new Pricing(deps);
    this.adminStock = new AdminOrderStock(deps);
    this.drawIds = newOrderIds(deps.db.reader);
  }

  private tx<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.deps.db.em().transactional(work);
  }

  private async locked(em: EntityManager, id: number): Promise<Order> {
    const order = await findOrder(em, id, true);
    if (!order) throw orderNotFound();
    return order;
  }

  // ---- Checkout (cart, payments) ----

  /** Creates (or promotes a draft into) the order of a checkout; idempotent by checkout key. */
  async createFromCheckout(input: CheckoutOrderInput, actor: Actor): Promise<{ order: Order; existing: boolean }> {
    assertNoNul(input);
    if (!input.checkoutKey || input.checkoutKey.length > 255 || !noNul(input.checkoutKey)) {
      throw invalidOrderInput({ checkout_key: 'checkout_key is required (at most 255 characters).' });
    }
    const status = (input.status || 'pending_payment') as OrderStatus;
    if (status !== 'pending_payment' && status !== 'checkout_draft') {
      throw invalidOrderInput({ status: 'status must be pending_payment or checkout_draft.' });
    }
    const content = this.checkoutContent(input);
    const currency = input.currency || (await this.deps.store.currency());
    const now = this.deps.now();
    if (!input.draftOrderId) return this.insertFromCheckout(input, status, content, currency, actor, now);
    const promoted = await this.tx(async (em): Promise<{ order: Order; existing: boolean } | 'draft_gone'> => {
      const existingId = await findIdByCheckoutKey(em, input.checkoutKey);
      if (existingId && existingId !== input.draftOrderId) {
        return { order: (await findOrder(em, existingId))!, existing: true };
      }
      const draft = await this.locked(em, input.draftOrderId);
      if (draft.customerId !== input.customerId) throw orderNotFound();
      if (draft.status !== 'checkout_draft') {
        if (draft.checkoutKey === input.checkoutKey) return { order: draft, existing: true };
        // Placed (or failed) by an earlier checkout that the cart did not let go of: this one gets an order of its own.
        return 'draft_gone';
      }
      await replaceContent(em, draft.id, content);
      await updateOrderFields(em, draft.id, {
        checkoutKey: input.checkoutKey,
        currency: input.currency || draft.currency,
        billing: input.billing ?? draft.billing,
        shipping: input.shipping ?? draft.shipping,
        customerNote: input.customerNote,
        paymentMethod: input.paymentMethod,
        paymentMethodTitle: input.paymentMethodTitle,
        reservationId: input.reservationId,
        couponCodes: input.couponCodes,
      }, now);
      const order = (await findOrder(em, draft.id))!;
      if (status === 'pending_payment') {
        const plan = planTransition(order, 'pending_payment', 'checkout');
        if (plan) await applyTransition(em, order, plan, { cause: 'checkout', actor }, now);
      }
      return { order: (await findOrder(em, draft.id))!, existing: false };
    });
    return promoted === 'draft_gone' ? this.insertFromCheckout(input, status, content, currency, actor, now) : promoted;
  }

  /**
   * A new checkout order in one statement with its order_placed (no
   * transaction: its ids are drawn first, so the events can be written with
   * it). The checkout key is unique: a placement already made (or running in
   * a concurrent tab, whose commit the insert waits for) makes it a no-op.
   */
  private async insertFromCheckout(
    input: CheckoutOrderInput,
    status: OrderStatus,
    content: OrderContent,
    currency: string,
    actor: Actor,
    now: Date,
  ): Promise<{ order: Order; existing: boolean }> {
    const ids = await this.drawIds(content.lineItems.length);
    const order = this.newOrder(input, status, content, currency);
    const events: OutboxRow[] = [];
    if (status !== 'checkout_draft') {
      const lineItems = order.lineItems.map((l, i) => ({ ...l, id: ids.lines[i] }));
      recordPlaced(intoRows(events), { ...order, id: ids.order, lineItems }, now);
    }
    const inserted = await insertOrderWithEvents(this.deps.db.reader, order, ids, now, created(status, actor), events);
    if (inserted) {
      if (events.length) this.deps.db.outboxWritten();
      this.justCreated.remember(inserted.order, inserted.version);
      return { order: inserted.order, existing: false };
    }
    const em = this.deps.db.em();
    const twin = await findIdByCheckoutKey(em, input.checkoutKey);
    // Ids and order keys are unique by construction: only the checkout key can have been taken.
    if (!twin) throw new Error(`order ${ids.order} was not inserted, yet no order has its checkout key`);
    return { order: (await findOrder(em, twin))!, existing: true };
  }

  private checkoutContent(input: CheckoutOrderInput): OrderContent {
    const bad: Record<string, string> = {};
    input.lineItems.forEach((l, i) => {
      if (!Number.isSafeInteger(l.quantity) || l.quantity < 1) bad[`line_items[${i}].quantity`] = 'quantity must be at least 1.';
      if (l.subscription && !validTerms(l.subscription)) bad[`line_items[${i}].subscription`] = 'Not a billing schedule.';
    });
    if (Object.keys(bad).length) throw invalidOrderInput(bad);
    const content: OrderContent = {
      lineItems: input.lineItems.map((l, i) => ({
        productId: l.productId,
        priceId: l.priceId,
        variationId: l.variationId,
        name: l.name,
        quantity: l.quantity,
        price: money(l.price, `line_items[${i}].price`),
        subtotal: money(l.subtotal, `line_items[${i}].subtotal`),
        discount: money(l.discount, `line_items[${i}].discount`),
        tax: money(l.tax, `line_items[${i}].tax`),
        total: money(l.total, `line_items[${i}].total`),
        downloadable: l.downloadable,
        shippingRequired: l.shippingRequired,
        sku: l.sku,
        metaData: parseMeta(l.metaJson),
        subscription: l.subscription ?? null,
      })),
      shippingLines: input.shippingLines.map((s, i) => ({
        methodId: s.methodId,
        instanceId: s.instanceId,
        rateId: s.rateId,
        label: s.label,
        total: money(s.total, `shipping_lines[${i}].total`),
        totalTax: money(s.totalTax, `shipping_lines[${i}].total_tax`),
      })),
      couponLines: input.couponLines.map((c, i) => ({ code: c.code, discount: money(c.discount, `coupon_lines[${i}].discount`) })),
      taxLines: input.taxLines.map((t, i) => ({
        rateId: t.rateId,
        label: t.label,
        compound: t.compound,
        rate: t.rate,
        taxTotal: money(t.taxTotal, `tax_lines[${i}].tax_total`),
        shippingTaxTotal: money(t.shippingTaxTotal, `tax_lines[${i}].shipping_tax_total`),
      })),
      subtotal: money(input.subtotal, 'subtotal'),
      discountTotal: money(input.discountTotal, 'discount_total'),
      shippingTotal: money(input.shippingTotal, 'shipping_total'),
      totalTax: money(input.totalTax, 'total_tax'),
      total: money(input.total, 'total'),
    };
    const expected = content.subtotal - content.discountTotal + content.shippingTotal + content.totalTax;
    if (input.total && expected !== content.total) {
      throw invalidOrderInput({ total: 'total must equal subtotal - discount_total + shipping_total + total_tax.' });
    }
    if (!input.total) content.total = expected;
    return content;
  }

  private newOrder(input: CheckoutOrderInput, status: OrderStatus, content: OrderContent, currency: string): NewOrder {
    return {
      ...content,
      status,
      paidStatus: 'unpaid',
      orderKey: newOrderKey(),
      checkoutKey: input.checkoutKey,
      currency,
      customerId: input.customerId,
      paymentMethod: input.paymentMethod,
      paymentMethodTitle: input.paymentMethodTitle,
      transactionId: '',
      customerNote: input.customerNote,
      billing: input.billing ?? emptyAddress(),
      shipping: input.shipping ?? emptyAddress(),
      metaData: [],
      reservationId: input.reservationId,
      createdVia: input.createdVia || 'checkout',
      couponCodes: input.couponCodes,
    };
  }

  /** A gateway's outcome; idempotent (the same outcome again changes nothing). */
  async recordPaymentResult(
    orderId: number,
    outcome: string,
    details: { transactionId: string; paymentMethod: string; paymentMethodTitle: string; message: string },
    actor: Actor,
  ): Promise<Order> {
    assertNoNul(details);
    if (!['paid', 'on_hold', 'failed', 'requires_action'].includes(outcome)) {
      throw invalidOrderInput({ outcome: 'outcome must be paid, on_hold, failed or requires_action.' });
    }
    const now = this.deps.now();
    const changes: OrderFieldChanges = {
      transactionId: details.transactionId || undefined,
      paymentMethod: details.paymentMethod || undefined,
      paymentMethodTitle: details.paymentMethodTitle || undefined,
    };
    const extras = { cause: 'payment' as const, actor, changes, note: details.message, failureReason: details.message };
    const direct = await this.recordPaymentDirectly(orderId, outcome, extras, now);
    if (direct) return direct;
    const recorded = await this.tx(async (em): Promise<Order | 'refund_due'> => {
      const order = await this.locked(em, orderId);
      if (order.status === 'cancelled' && outcome !== 'requires_action') {
        // Cancelled meanwhile: a failure changes nothing; a payment is recorded and refunded (late-payment.ts).
        if (outcome !== 'paid' || !isLatePayment(order)) return order;
        await this.latePayments.record(em, order, changes, now);
        return 'refund_due';
      }
      if (outcome === 'requires_action') {
        if (order.status === 'checkout_draft') {
          const plan = planTransition(order, 'pending_payment', 'checkout');
          if (plan) await applyTransition(em, order, plan, { cause: 'checkout', actor, changes }, now);
        } else if (order.paidStatus === 'unpaid') {
          await updateOrderFields(em, order.id, changes, now);
        }
        return (await findOrder(em, orderId))!;
      }
      if (outcome === 'paid' && order.paidStatus !== 'unpaid') return order; // replay
      if (outcome !== 'paid' && order.paidStatus !== 'unpaid') return order; // a late failure after paid changes nothing
      const to = paymentTarget(order, outcome);
      if (order.status === to) return order; // replay
      const plan = planTransition(order, to, 'payment');
      if (!plan) return order;
      // Lines are untouched by a transition: the order as it now is, without reading it again.
      return applyTransition(em, order, plan, extras, now);
    });
    return recorded === 'refund_due' ? this.latePayments.refund(orderId, actor) : recorded;
  }

  /**
   * The usual payment result, a gateway's answer for an open unpaid order, as
   * one read and one write that commits only if the order is still as read,
   * with its events (no transaction); a paid order is answered from the read.
   * Null for the rest (cancelled, draft, requires_action, or changed
   * meanwhile): the locked transaction of recordPaymentResult decides those.
   */
  private async recordPaymentDirectly(orderId: number, outcome: string, extras: TransitionExtras, now: Date): Promise<Order | null> {
    if (outcome === 'requires_action') return null;
    // The order this replica has just created is known as inserted (the usual place: create, then its
    // payment); the guarded update below proves it unchanged, or sends the result to the locked path.
    const read = this.justCreated.take(orderId) ?? (await readOrderVersion(this.deps.db.reader, orderId));
    if (!read) throw orderNotFound();
    const { order } = read;
    if (order.status === 'cancelled' || order.status === 'checkout_draft') return null;
    if (order.paidStatus !== 'unpaid') return order; // a replay, or a late failure after paid: nothing changes
    const to = paymentTarget(order, outcome);
    if (order.status === to) return order; // replay
    let plan: TransitionPlan | null;
    try {
      plan = planTransition(order, to, 'payment');
    } catch {
      return null; // refused on this unlocked read: the locked transaction decides, and answers
    }
    if (!plan) return order;
    const events: OutboxRow[] = [];
    const write = transitionWrite(order, plan, extras, now, intoRows(events));
    if (!(await updateOrderIfUnchanged(this.deps.db.reader, { id: order.id, version: read.version }, write.changes, write.history, now, events))) return null;
    this.deps.db.outboxWritten();
    return write.next;
  }

  /** The order when the caller may pay it (owner, pay_for_order, manage_options, or its key); else 404. */
  async getForPayment(orderId: number, orderKey: string, actor: Actor): Promise<Order> {
    assertNoNul(orderKey, 'order_key');
    const order = await readOrder(this.deps.db.reader, orderId);
    if (!order) throw orderNotFound();
    const allowed =
      (actor.userId > 0 && order.customerId === actor.userId) ||
      can(actor, 'pay_for_order') ||
      can(actor, 'manage_options') ||
      (orderKey !== '' && orderKey === order.orderKey);
    if (!allowed) throw orderNotFound();
    return order;
  }

  // ---- Admin ----

  /**
   * A conditional read of a page of whole orders: the page's ids and versions
   * first (one statement), then the orders only when `ifNoneMatch` is not the
   * page's current ETag.
   */
  async list(query: OrderListQuery, ifNoneMatch = ''): Promise<OrderPage & { etag: string; notModified: boolean }> {
    const { keys, total } = await listOrderVersions(this.deps.db.reader, query);
    const etag = orderPageEtag(query, keys, total);
    if (ifNoneMatch && ifNoneMatch === etag) return { orders: [], total, etag, notModified: true };
    return { orders: await ordersAt(this.deps.db.reader, this.documents, keys), total, etag, notModified: false };
  }

  /** The same list as summaries (no lines, addresses or meta). */
  listSummaries(query: OrderListQuery): Promise<OrderPage<OrderSummary>> {
    return listOrderSummaries(this.deps.db.reader, query);
  }

  async get(id: number): Promise<Order> {
    const order = await readOrder(this.deps.db.reader, id);
    if (!order) throw orderNotFound();
    return order;
  }

  history(id: number): Promise<StatusChange[]> {
    return statusHistory(this.deps.db.em(), id);
  }

  async adminCreate(input: AdminOrderInput, actor: Actor): Promise<Order> {
    assertNoNul(input);
    assertBillingEmail(input.billing);
    const status = input.status || 'pending_payment';
    if (!isOrderStatus(status)) throw invalidStatus(status);
    await assertCustomerExists(this.deps.customers, input.customerId);
    const currency = input.currency || (await this.deps.store.currency());
    const billing = input.billing ?? emptyAddress();
    const shipping = input.shipping ?? emptyAddress();
    const lines = await this.pricing.priceLines(input.lineItems, currency);
    const content = await this.pricing.total(lines, shipping, billing);
    const now = this.deps.now();
    // A draft (spec: create takes any status slug) is stored as one: not placed, nothing announced.
    const draft = status === 'checkout_draft' && !input.setPaid;
    const reservationId = draft ? '' : await this.adminStock.reserve(lines);
    const id = await this.adminStock.storing(reservationId, () => this.tx(async (em) => {
      const order = await insertOrder(
        em,
        {
          ...content,
          status: draft ? 'checkout_draft' : 'pending_payment',
          paidStatus: 'unpaid',
          orderKey: newOrderKey(),
          checkoutKey: null,
          currency,
          customerId: input.customerId,
          paymentMethod: input.paymentMethod,
          paymentMethodTitle: input.paymentMethodTitle,
          transactionId: input.transactionId,
          customerNote: input.customerNote,
          billing,
          shipping,
          metaData: input.metaData,
          reservationId,
          createdVia: 'admin',
          couponCodes: [],
        },
        now,
        created(draft ? 'checkout_draft' : 'pending_payment', actor),
      );
      if (draft) return order!.id;
      recordPlaced(intoOutbox(em), order!, now);
      // The requested status (or set_paid) is reached through the state machine.
      const target = input.setPaid ? this.paidTarget(order!, status) : status;
      if (target !== 'pending_payment') {
        const plan = planTransition(order!, target, 'admin');
        if (plan) await applyTransition(em, order!, plan, { cause: 'admin', actor }, now);
      }
      return order!.id;
    }));
    const order = await this.get(id);
    await this.adminStock.placed(reservationId, order);
    return order;
  }

  /** The status an admin's "mark paid" lands on: the asked paid status, else by shipping. */
  private paidTarget(order: Order, asked: string | undefined): OrderStatus {
    if (asked === 'processing' || asked === 'completed') return asked;
    return paidStatusFor(order.lineItems.some((l) => l.shippingRequired));
  }

  async update(id: number, input: OrderUpdate, actor: Actor): Promise<Order> {
    assertNoNul(input);
    assertBillingEmail(input.billing);
    if (input.status !== undefined && !isOrderStatus(input.status)) throw invalidStatus(input.status);
    const now = this.deps.now();
    // Refunds call the payment gateway; plan first (a refused transition never reaches it).
    const current = await this.get(id);
    if (input.customerId !== current.customerId) await assertCustomerExists(this.deps.customers, input.customerId);
    // Lines (and any payment) are in the order's currency: relabelling them would misstate every amount.
    if (input.currency !== undefined && input.currency.toUpperCase() !== current.currency && current.lineItems.length) {
      throw unprocessable('shop_order_currency_mismatch', `The order's items are priced in ${current.currency}; its currency cannot change.`);
    }
    const wantsStatus = input.setPaid && current.paidStatus === 'unpaid' ? this.paidTarget(current, input.status) : input.status;
    if (wantsStatus !== undefined) planTransition(current, wantsStatus, 'admin');
    // Everything that can refuse the request runs before money moves.
    const priced = input.lineItems.length ? await this.pricing.priceLines(input.lineItems, input.currency ?? current.currency) : [];
    if (priced.length && !isEditable(current)) throw notEditable();
    let refund: { amount: number; reason: string } | undefined;
    if (wantsStatus === 'refunded' && current.status !== 'refunded') {
      refund = { amount: current.total - current.refundedTotal, reason: input.reason };
      // Keyed by what is refunded: a repeated or concurrent request for the same refund pays back once.
      const idempotencyKey = refundKey(id, current.transactionId, `refund-from-${current.refundedTotal}-of-${refund.amount}`);
      await refundThroughGateway(this.deps, current, { ...refund, idempotencyKey });
    }
    // An admin moving a draft on places it: its lines take their stock now (checked, 422 past it), as an
    // order created in that status would; a refused or failed write gives the units back.
    const placing = current.status === 'checkout_draft' && wantsStatus !== undefined && wantsStatus !== 'checkout_draft' && !current.reservationId;
    const placedReservation = placing ? await this.adminStock.reserve([...current.lineItems, ...priced]) : '';
    // New lines are totalled by the quote engine before the transaction opens (never a remote call inside it).
    const prepare = (order: Order) =>
      priced.length
        ? {
            lines: [...order.lineItems, ...priced],
            shipping: mergeAddress(order.shipping, input.shipping, input.shippingFields) ?? order.shipping,
            billing: mergeAddress(order.billing, input.billing, input.billingFields) ?? order.billing,
          }
        : undefined;
    await this.adminStock.storing(placedReservation, () => this.editPriced(id, prepare, async (em, locked, content) => {
      let order = locked;
      // Merged with the locked row: a concurrent change of another field is kept.
      const billing = mergeAddress(order.billing, input.billing, input.billingFields);
      const shipping = mergeAddress(order.shipping, input.shipping, input.shippingFields);
      if (content) {
        if (!isEditable(order)) throw notEditable();
        await replaceContent(em, id, { ...content, couponLines: keptCoupons(order.couponLines, content.discountTotal) });
        order = (await findOrder(em, id))!;
      }
      const changes: OrderFieldChanges = {
        currency: input.currency,
        customerId: input.customerId,
        paymentMethod: input.paymentMethod,
        paymentMethodTitle: input.paymentMethodTitle,
        customerNote: input.customerNote,
        billing,
        shipping,
        transactionId: input.transactionId,
        metaData: input.metaData.length ? mergeMeta(order.metaData, input.metaData) : undefined,
        reservationId: placedReservation || undefined,
      };
      const plan = wantsStatus !== undefined ? planTransition(order, wantsStatus, 'admin') : null;
      if (plan) {
        await applyTransition(em, order, plan, { cause: 'admin', actor, changes, refund, note: input.reason }, now);
      } else {
        await updateOrderFields(em, id, changes, now);
      }
    }));
    const updated = await this.get(id);
    if (placedReservation) await this.adminStock.placed(placedReservation, updated);
    return updated;
  }

  async delete(id: number): Promise<Order> {
    return this.tx(async (em) => {
      const order = await this.locked(em, id);
      await deleteOrder(em, id);
      recordDeleted(intoOutbox(em), order);
      return order;
    });
  }

  async addLines(id: number, inputs: LineInput[]): Promise<Order> {
    assertNoNul(inputs, 'line_items');
    const current = await this.get(id);
    if (!isEditable(current)) throw notEditable();
    if (!inputs.length) throw invalidOrderInput({ line_items: 'At least one line item.' });
    const priced = await this.pricing.priceLines(inputs, current.currency);
    return this.changeLines(id, (lines) => [...lines, ...priced]);
  }

  async removeLines(id: number, itemIds: number[]): Promise<Order> {
    const current = await this.get(id);
    if (!isEditable(current)) throw notEditable();
    if (!itemIds.length) throw invalidOrderInput({ item_ids: 'At least one item id.' });
    for (const itemId of itemIds) if (!current.lineItems.some((l) => l.id === itemId)) throw lineItemNotFound(itemId);
    return this.changeLines(id, (lines) => lines.filter((l) => !itemIds.includes(l.id!)));
  }

  async updateLine(id: number, itemId: number, change: { quantity?: number; metaJson?: string }): Promise<Order> {
    assertNoNul(change);
    const current = await this.get(id);
    if (!isEditable(current)) throw notEditable();
    if (!current.lineItems.some((l) => l.id === itemId)) throw lineItemNotFound(itemId);
    if (change.quantity !== undefined && (!Number.isSafeInteger(change.quantity) || change.quantity < 1)) {
      throw invalidOrderInput({ quantity: 'quantity must be at least 1.' });
    }
    const meta = change.metaJson !== undefined ? parseMeta(change.metaJson) : undefined;
    return this.changeLines(id, (lines) =>
      lines.map((l) => {
        if (l.id !== itemId) return l;
        const quantity = change.quantity ?? l.quantity;
        const subtotal = lineSubtotal(l.price, quantity, `order_item ${itemId}`);
        // The line's discount follows its quantity (3 x 10 less 15 becomes 1 x 10 less 5, never below zero).
        const discount = Math.min(subtotal, Math.round((l.discount * quantity) / Math.max(1, l.quantity)));
        return { ...l, quantity, subtotal, discount, total: subtotal - discount, metaData: meta ?? l.metaData };
      }),
    );
  }

  private async changeLines(
    id: number,
    edit: (lines: OrderContent['lineItems'], order: Order) => OrderContent['lineItems'],
  ): Promise<Order> {
    const now = this.deps.now();
    const prepare = (order: Order) => {
      if (!isEditable(order)) throw notEditable();
      return { lines: edit(order.lineItems, order), shipping: order.shipping, billing: order.billing };
    };
    await this.editPriced(id, prepare, async (em, order, content) => {
      if (!isEditable(order)) throw notEditable();
      await replaceContent(em, id, { ...content!, couponLines: keptCoupons(order.couponLines, content!.discountTotal) });
      await updateOrderFields(em, id, {}, now);
    });
    return this.get(id);
  }

  /**
   * An edit whose new lines the quote engine totals: priced from a read of the
   * order before the transaction opens (a remote call inside it would hold
   * the order's lock across the network, and on the one-session embedded
   * database deadlock), then written under the lock only if the row is still
   * the version priced; another writer first means price again. `prepare`
   * returning undefined: nothing to price, the write just runs under the lock.
   */
  private async editPriced(
    id: number,
    prepare: (order: Order) => { lines: OrderContent['lineItems']; shipping: Address; billing: Address } | undefined,
    write: (em: EntityManager, order: Order, content: OrderContent | undefined) => Promise<void>,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const read = await readOrderVersion(this.deps.db.reader, id);
      if (!read) throw orderNotFound();
      const wanted = prepare(read.order);
      const content = wanted && (await this.pricing.total(wanted.lines, wanted.shipping, wanted.billing));
      const store = (newReservationId = '') =>
        this.tx(async (em) => {
          const version = await lockOrderVersion(em, id);
          if (version === null) throw orderNotFound();
          if (content && version !== read.version) throw STALE;
          // First, so that events the write records (order_paid) carry the reservation.
          if (newReservationId) await updateOrderFields(em, id, { reservationId: newReservationId }, this.deps.now());
          await write(em, (await findOrder(em, id))!, content);
        });
      try {
        // New lines move the order's reservation with them (held units follow, checked), undone if the write fails.
        if (content) await this.adminStock.editing(read.order, content.lineItems, read.order.lineItems, store);
        else await store();
        return;
      } catch (err) {
        if (err !== STALE) throw err;
      }
      if (attempt >= 5) throw editConflict();
    }
  }

  // ---- The customer's own orders ----

  async listMine(actor: Actor, page: number, perPage: number, statuses: string[]): Promise<OrderPage<OrderSummary>> {
    for (const s of statuses) if (!isOrderStatus(s)) throw invalidStatus(s);
    // A caller without an account has no orders of its own (customer 0 is every guest's).
    if (actor.userId <= 0) return { orders: [], total: 0 };
    return listOrderSummaries(this.deps.db.reader, {
      page: Math.max(1, page || 1),
      perPage: Math.min(100, Math.max(1, perPage || 10)),
      offset: 0,
      statuses: statuses as OrderStatus[],
      excludeStatuses: ['checkout_draft'],
      customerId: actor.userId,
      after: null,
      before: null,
      search: '',
      orderby: 'date',
      order: 'desc',
    });
  }

  async getMine(actor: Actor, id: number): Promise<Order> {
    const order = actor.userId > 0 ? await readOrder(this.deps.db.reader, id) : null;
    if (!order || order.customerId !== actor.userId || order.status === 'checkout_draft') throw orderNotFound();
    return order;
  }

  async cancelMine(actor: Actor, id: number): Promise<Order> {
    await this.getMine(actor, id);
    const now = this.deps.now();
    await this.tx(async (em) => {
      const order = await this.locked(em, id);
      const plan = planCustomerCancel(order, this.deps.cancellable);
      await applyTransition(em, order, plan, { cause: 'customer', actor, note: 'Cancelled by the customer.' }, now);
    });
    return this.get(id);
  }

  async payMine(actor: Actor, id: number): Promise<Order> {
    const order = await this.getMine(actor, id);
    if (order.paidStatus !== 'unpaid') throw alreadyPaid();
    if (!needsPayment(order)) throw notPayable(order.status);
    return order;
  }
}

function mergeMeta(
  current: Order['metaData'],
  updates: Array<{ key: string; valueJson: string }>,
): Array<{ key: string; valueJson: string }> {
  const out = current.map((m) => ({ key: m.key, valueJson: m.valueJson }));
  for (const u of updates) {
    const hit = out.find((m) => m.key === u.key);
    if (hit) hit.valueJson = u.valueJson;
    else out.push(u);
  }
  return out;
}

export { SYSTEM };
