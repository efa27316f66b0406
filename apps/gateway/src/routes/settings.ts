import type { RouteModule } from '../context';
import { siteSettingsResource } from './platform';

/** `GET /settings`: the store settings object (identity, currency, pages, checkout options). */
export const settingsRoutes: RouteModule = (app, ctx) => {
  app.get('/settings', { config: { access: 'admin' } }, async (request) => {
    const { settings } = await ctx.clients.customers.settings.getStoreSettings({}, request.caller);
    const s = settings!;
    const site = siteSettingsResource(s.site);
    const address = s.site?.storeAddress;
    return {
      store_name: site.store_name,
      site_url: site.site_url,
      logo_url: site.logo_url,
      store_address: {
        address_1: address?.address1 ?? '',
        address_2: address?.address2 ?? '',
        city: address?.city ?? '',
        state: address?.state ?? '',
        postcode: address?.postcode ?? '',
        country: address?.country ?? '',
      },
      currency: site.currency,
      currency_symbol: s.currencySymbol,
      currency_position: s.currencyPosition,
      thousand_separator: s.thousandSeparator,
      decimal_separator: s.decimalSeparator,
      price_decimals: s.priceDecimals,
      prices_include_tax: site.prices_include_tax,
      pages: {
        shop: s.pages?.shop ?? '',
        cart: s.pages?.cart ?? '',
        checkout: s.pages?.checkout ?? '',
        my_account: s.pages?.myAccount ?? '',
        terms: s.pages?.terms ?? '',
      },
      checkout: {
        guest_checkout: s.guestCheckout,
        place_order_label: s.placeOrderLabel,
        users_can_register: site.users_can_register,
        min_password_length: s.minPasswordLength,
      },
      weight_unit: s.weightUnit,
      dimension_unit: s.dimensionUnit,
      addons: s.addons,
    };
  });
};
