import { sitePageUrl, type SiteSettingsSnapshot } from '@storefront/grpc-client';
import type { orders } from '@storefront/proto/orders';
import type { NotificationsDomain } from '../domain';
import type { EmailRequest } from '../domain/email/emails';
import type { EmailType } from '../domain/email/types';
import { emailConsumer } from './email-consumer';

type Line = orders.OrderCancelledLine;

function itemsText(lines: Line[]): string {
  return lines.map((l) => `${l.quantity} x ${l.name}${l.total ? ` (${l.total})` : ''}`).join('; ');
}

function orderUrl(site: SiteSettingsSnapshot, orderId: number): string {
  return sitePageUrl(site.siteUrl, `/my-account/view-order/${orderId}/`);
}

/** Statuses of an order still being placed: nothing to announce yet (its payment may still fail). */
const BEING_PLACED = new Set(['pending_payment', 'checkout_draft', 'failed']);
/** Statuses of a placed order: paid, or accepted to be paid later (bank transfer). */
const PLACED = new Set(['on_hold', 'processing', 'completed']);

/**
 * "Order received" to the customer and "new order" to the store admin, once an
 * order is really placed, and once per order: an order that moves back (on
 * hold, then failed or pending, then on hold or paid again) is not announced
 * a second time.
 */
async function placedEmails(domain: NotificationsDomain, site: SiteSettingsSnapshot, o: PlacedOrderFacts): Promise<EmailRequest[]> {
  // How to pay (a bank transfer's account details), for the buyer of an order not paid yet.
  const instructions = o.status === 'on_hold' ? await domain.deps.paymentInstructions(o.paymentMethod) : '';
  const vars = { ...orderVars(site, o), total: o.total, items: itemsText(o.lines), payment_method: o.paymentMethod, payment_instructions: instructions };
  const once = (type: EmailType) => `${type}:${o.orderId}`;
  return [
    ...toBuyer(o, 'order_received', vars).map((e) => ({ ...e, onceKey: once('order_received') })),
    { type: 'admin_new_order', to: domain.deps.config.SHOP_ADMIN_EMAIL, vars, onceKey: once('admin_new_order') },
  ];
}

type PlacedOrderFacts = Pick<orders.OrderPlaced, 'orderId' | 'customerId' | 'billingEmail' | 'billingFirstName' | 'currency' | 'total' | 'lines' | 'paymentMethod'> & {
  /** The order's status now (on hold: its payment is still to be made). */
  status: string;
};

/**
 * orders.order_placed: an order created already placed (an admin's, on hold or
 * processing) is announced now; a checkout's (pending_payment) waits for its
 * payment: a declined card announces nothing, a retry does not announce twice.
 */
export function onOrderPlaced(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderPlaced>(domain, (o, site) => (PLACED.has(o.status) ? placedEmails(domain, site, o) : []));
}

/**
 * orders.order_status_changed, as the host platform's order emails: an order
 * leaving "being placed" for "placed" (paid, or on hold) is announced; one on
 * hold that is paid gets "payment received" (a placement paid at once gets
 * only the announcement); a completed one "order complete"; the admin hears of
 * an order whose payment failed (from pending or on hold).
 */
export function onOrderStatusChanged(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderStatusChanged>(domain, async (o, site) => {
    // An event without the order's figures comes from an orders service older than these emails: its
    // order was announced at order_placed.
    if (!o.total) return [];
    const vars = { ...orderVars(site, o), total: o.total, items: itemsText(o.lines), payment_method: o.paymentMethod, previous_status: o.fromStatus };
    const emails: EmailRequest[] = [];
    if (BEING_PLACED.has(o.fromStatus) && PLACED.has(o.toStatus)) emails.push(...(await placedEmails(domain, site, { ...o, status: o.toStatus })));
    if (o.fromStatus === 'on_hold' && o.toStatus === 'processing') emails.push(...toBuyer(o, 'order_paid', vars));
    if (o.toStatus === 'completed') emails.push(...toBuyer(o, 'order_completed', vars));
    if (o.toStatus === 'failed' && (o.fromStatus === 'pending_payment' || o.fromStatus === 'on_hold')) {
      emails.push({ type: 'admin_order_failed', to: domain.deps.config.SHOP_ADMIN_EMAIL, vars });
    }
    return emails;
  });
}

/** The variables every email about an order has. */
function orderVars(site: SiteSettingsSnapshot, o: { orderId: number; billingFirstName: string; currency: string }) {
  return {
    order_id: String(o.orderId),
    first_name: o.billingFirstName,
    currency: o.currency,
    order_url: orderUrl(site, Number(o.orderId)),
  };
}

/**
 * One email of `type` to the order's billing address; none when the order has
 * no address. A registered customer's own order emails follow their
 * `order_email` preference (Emails.wanted).
 */
function toBuyer(o: { billingEmail: string; customerId: number }, type: EmailType, vars: Record<string, string>): EmailRequest[] {
  return o.billingEmail ? [{ type, to: o.billingEmail, vars, orderEmailOf: Number(o.customerId) }] : [];
}

/**
 * A placed order (on hold, processing, completed) that is cancelled is told to
 * its buyer; one cancelled while still being placed (pending payment, failed:
 * a declined card nobody paid again) was never announced, so its cancel is not
 * either (as the host platform's cancelled-order email, from on-hold or processing only).
 */
export function onOrderCancelled(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderCancelled>(domain, (o, site) => {
    if (!PLACED.has(o.previousStatus)) return [];
    const vars = { ...orderVars(site, o), total: o.total, previous_status: o.previousStatus };
    return [...toBuyer(o, 'order_cancelled', vars), { type: 'admin_order_cancelled', to: domain.deps.config.SHOP_ADMIN_EMAIL, vars }];
  });
}

export function onOrderRefunded(domain: NotificationsDomain) {
  return emailConsumer<orders.OrderRefunded>(domain, (o, site) =>
    toBuyer(o, 'order_refunded', { ...orderVars(site, o), amount: o.amount, reason: o.reason }),
  );
}
