import { bindClient, type Channel } from '@storefront/grpc-client';
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
  private value: StoreSettingsView | undefined;
  private fetchedAt = 0;
  private pending: Promise<StoreSettingsView> | undefined;
  private readonly client;

  constructor(channel: Channel | undefined, private readonly ttlMs: number) {
    this.client = channel && bindClient(channel, customers.SettingsServiceService);
  }

  async store(): Promise<StoreSettingsView> {
    if (!this.client) return DEFAULTS;
    if (this.value && Date.now() - this.fetchedAt < this.ttlMs) return this.value;
    const generation = this.fetchedAt;
    this.pending ??= this.client
      .getStoreSettings({}, SERVICE_CALLER)
      .then(({ settings }) => {
        const s = settings!;
        const site = s.site!;
        const view: StoreSettingsView = {
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
        if (this.fetchedAt === generation) {
          this.value = view;
          this.fetchedAt = Date.now();
        }
        return view;
      })
      .finally(() => (this.pending = undefined));
    return this.pending;
  }

  invalidate(): void {
    this.value = undefined;
    this.fetchedAt = -1;
    this.pending = undefined;
  }
}
