import { Type } from 'typebox';
import type { RouteModule } from '../context';
import { documented } from '../http/responses';
import { siteSettingsResource } from './platform';

const S = Type.String;
export const StoreSettingsSchema = Type.Object(
  {
    store_name: S(),
    site_url: S(),
    logo_url: S(),
    store_address: Type.Object({
      address_1: S(),
      address_2: S(),
      city: S(),
      state: S(),
      postcode: S(),
      country: S(),
    }),
    currency: S(),
    currency_symbol: S(),
    currency_position: S(),
    thousand_separator: S(),
    decimal_separator: S(),
    price_decimals: Type.Integer(),
    prices_include_tax: Type.Boolean(),
    pages: Type.Object({ shop: S(), cart: S(), checkout: S(), my_account: S(), terms: S() }),
    checkout: Type.Object({
      guest_checkout: Type.Boolean(),
      place_order_label: S(),
      users_can_register: Type.Boolean(),
      min_password_length: Type.Integer(),
    }),
    weight_unit: S(),
    dimension_unit: S(),
    addons: Type.Array(S()),
  },
  { title: 'StoreSettings' },
);

/** `GET /settings`: the store settings object (identity, currency, pages, checkout options). */
export const settingsRoutes: RouteModule = (app, ctx) => {
  app.get(
    '/settings',
    {
      config: { access: 'admin' },
      schema: documented('customers')('getStoreSettings', 'Get the store settings', { 200: StoreSettingsSchema }),
    },
   async (request) => {
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
