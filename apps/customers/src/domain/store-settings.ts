import { sitePageUrl } from '@storefront/grpc-client';
import type { SiteOptions } from './site-options';

const SYMBOLS: Record<string, string> = {
  USD: '$', EUR: '€', GBP: '£', JPY: '¥', CNY: '¥', INR: '₹', AUD: '$', CAD: '$', CHF: 'CHF', SEK: 'kr',
  NOK: 'kr', DKK: 'kr', PLN: 'zł', BRL: 'R$', MXN: '$', NZD: '$', ZAR: 'R', KRW: '₩', TRY: '₺', CZK: 'Kč',
};
const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'HUF']);

export interface StoreSettings {
  site: SiteOptions;
  pages: { shop: string; cart: string; checkout: string; my_account: string; terms: string };
  currency_symbol: string;
  currency_position: string;
  thousand_separator: string;
  decimal_separator: string;
  price_decimals: number;
  guest_checkout: boolean;
  place_order_label: string;
  min_password_length: number;
  addons: string[];
  weight_unit: string;
  dimension_unit: string;
}

/** The store settings object: identity, currency, pages and checkout options. */
export function storeSettings(site: SiteOptions, minPasswordLength: number, addons: string[]): StoreSettings {
  const page = (path: string) => sitePageUrl(site.site_url, path);
  return {
    site,
    pages: {
      shop: page('/shop/'),
      cart: page('/cart/'),
      checkout: page('/checkout/'),
      my_account: page('/my-account/'),
      terms: page('/terms/'),
    },
    currency_symbol: SYMBOLS[site.currency] ?? site.currency,
    currency_position: 'left',
    thousand_separator: ',',
    decimal_separator: '.',
    price_decimals: ZERO_DECIMAL.has(site.currency) ? 0 : 2,
    guest_checkout: true,
    place_order_label: 'Place order',
    min_password_length: minPasswordLength,
    addons,
    weight_unit: 'kg',
    dimension_unit: 'cm',
  };
}
