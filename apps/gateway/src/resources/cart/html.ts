import type { cart } from '@storefront/proto/cart';

/** Escapes text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`=]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function money(amount: string | number | undefined, s: cart.CartSnapshot | undefined): string {
  const decimals = s?.priceDecimals ?? 2;
  const value = Number(amount || 0).toFixed(decimals);
  return `<span class="shop-amount">${esc(s?.currencySymbol || s?.currency || '')}${esc(value)}</span>`;
}

/** The cart's lines as a list (mini cart and order summary). */
export function itemsHtml(s: cart.CartSnapshot | undefined): string {
  const items = s?.items ?? [];
  if (!items.length) return '<p class="shop-cart-empty">Your cart is empty.</p>';
  const rows = items
    .map(
      (l) =>
        `<li class="shop-cart-item" data-item-key="${esc(l.itemKey)}">` +
        (l.image ? `<img src="${esc(l.image)}" alt="${esc(l.name)}">` : '') +
        `<span class="shop-cart-item-name">${esc(l.name)}</span>` +
        `<span class="shop-cart-item-quantity">${esc(l.quantity)} &times; ${money(l.price, s)}</span>` +
        `<span class="shop-cart-item-subtotal">${money(l.subtotal, s)}</span></li>`,
    )
    .join('');
  return `<ul class="shop-cart-items">${rows}</ul>`;
}

export function subtotalsHtml(s: cart.CartSnapshot | undefined): string {
  const t = s?.totals;
  const row = (label: string, value: string | undefined, cls: string) =>
    `<tr class="${esc(cls)}"><th>${esc(label)}</th><td>${money(value, s)}</td></tr>`;
  const coupons = (s?.appliedCoupons ?? [])
    .map((c) => `<tr class="shop-coupon" data-coupon="${esc(c.code)}"><th>Coupon: ${esc(c.code)}</th><td>-${money(c.discount, s)}</td></tr>`)
    .join('');
  return (
    '<table class="shop-cart-subtotals"><tbody>' +
    row('Subtotal', t?.subtotal, 'cart-subtotal') +
    coupons +
    (s?.needsShipping ? row('Shipping', t?.shipping, 'shipping') : '') +
    row('Tax', t?.tax, 'tax-total') +
    row('Total', t?.total, 'order-total') +
    '</tbody></table>'
  );
}

/** The shared shipping block: radio inputs on the checkout page, a plain list on the cart page. */
export function shippingHtml(s: cart.CartSnapshot | undefined, mode: 'cart' | 'checkout'): string {
  const rates = s?.shippingRates ?? [];
  if (!s?.needsShipping) return `<div class="shop-shipping-methods" data-mode="${mode}"></div>`;
  if (!rates.length) return `<div class="shop-shipping-methods" data-mode="${mode}"><p>No shipping options are available for this address.</p></div>`;
  const items = rates
    .map((r) => {
      const chosen = r.id === s.chosenShippingMethod;
      const label = `${esc(r.label)}: ${money(r.cost, s)}`;
      return mode === 'checkout'
        ? `<li><label><input type="radio" name="shipping_method" value="${esc(r.id)}"${chosen ? ' checked' : ''}> ${label}</label></li>`
        : `<li${chosen ? ' class="chosen"' : ''}>${label}</li>`;
    })
    .join('');
  return `<div class="shop-shipping-methods" data-mode="${mode}"><ul>${items}</ul></div>`;
}

export function paymentHtml(state: cart.CheckoutState | undefined): string {
  const gateways = state?.availableGateways ?? [];
  const items = gateways
    .map(
      (g, i) =>
        `<li class="shop-payment-method"><label><input type="radio" name="payment_method" value="${esc(g.id)}"${i === 0 ? ' checked' : ''}> ${esc(g.title)}</label>` +
        (g.description ? `<div class="shop-payment-description">${esc(g.description)}</div>` : '') +
        '</li>',
    )
    .join('');
  return (
    `<div class="shop-checkout-payment"><ul class="shop-payment-methods">${items || '<li>No payment methods are available.</li>'}</ul>` +
    `<button type="submit" class="shop-place-order">${esc(state?.placeOrderLabel || 'Place order')}</button></div>`
  );
}

/** The refresh-fragments map: DOM class name -> re-rendered HTML. */
export function fragmentsResource(state: cart.CheckoutState | undefined, mode: 'cart' | 'checkout'): Record<string, string> {
  const s = state?.snapshot;
  return {
    'shop-order-summary': `<div class="shop-order-summary">${itemsHtml(s)}${subtotalsHtml(s)}</div>`,
    'shop-cart-subtotals': subtotalsHtml(s),
    'shop-shipping-methods': shippingHtml(s, mode),
    'shop-checkout-payment': paymentHtml(state),
  };
}
