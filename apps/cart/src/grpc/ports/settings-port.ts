import { bindClient, CachedValue, type Channel } from '@storefront/grpc-client';
import { customers } from '@storefront/proto/customers';
import type { SettingsPort, StoreSettingsView } from '../../domain/ports';
import { SERVICE_CALLER } from './service-caller';

const DEFAULTS: StoreSettingsView = {
  currency: 'USD',
  pricesIncludeTax: false,
  siteUrl: 'http://127.0.0.1:8080',
  storeName: 'Storefront',
  logoUrl: '',
  currencySymbol: '$',
  priceDecimals: 2,
  placeOrderLabel: 'Place order',
  pages: { cart: 'http://127.0.0.1:8080/cart/', checkout: 'http://127.0.0.1:8080/checkout/', shop: 'http://127.0.0.1:8080/shop/', terms: '' },
};

/**
 * Store settings (currency, prices_include_tax, pages) from customers, cached
 * `ttlMs`; `invalidate` (on customers.site_settings_updated) drops the copy at once.
 */
export class CachedSettings implements SettingsPort {
  private readonly cache: CachedValue<StoreSettingsView> | undefined;

  constructor(channel: Channel | undefined, ttlMs: number) {
    const client = channel && bindClient(channel, customers.SettingsServiceService);
    this.cache = client && new CachedValue(() => client.getStoreSettings({}, SERVICE_CALLER).then(({ settings }) => storeSettingsView(settings!)), ttlMs);
  }

  store(): Promise<StoreSettingsView> {
    return this.cache ? this.cache.get() : Promise.resolve(DEFAULTS);
  }

  invalidate(): void {
    this.cache?.invalidate();
  }
}

function storeSettingsView(s: customers.StoreSettings): StoreSettingsView {
  const site = s.site!;
  return {
    currency: site.currency || 'USD',
    pricesIncludeTax: site.pricesIncludeTax,
    siteUrl: site.siteUrl,
    storeName: site.storeName,
    logoUrl: site.logoUrl,
    currencySymbol: s.currencySymbol,
    priceDecimals: s.priceDecimals,
    placeOrderLabel: s.placeOrderLabel,
    pages: { cart: s.pages?.cart ?? '', checkout: s.pages?.checkout ?? '', shop: s.pages?.shop ?? '', terms: s.pages?.terms ?? '' },
  };
}
