import { customers } from '@storefront/proto/customers';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { SiteOptions, StoreAddress } from '../domain/site-options';

function toProtoSite(s: SiteOptions): customers.SiteSettings {
  return {
    usersCanRegister: s.users_can_register,
    storeName: s.store_name,
    siteUrl: s.site_url,
    currency: s.currency,
    pricesIncludeTax: s.prices_include_tax,
    logoUrl: s.logo_url,
    storeAddress: {
      address1: s.store_address.address_1,
      address2: s.store_address.address_2,
      city: s.store_address.city,
      state: s.store_address.state,
      postcode: s.store_address.postcode,
      country: s.store_address.country,
    },
  };
}

function fromProtoAddress(a: customers.StoreAddress | undefined): StoreAddress | undefined {
  return a
    ? { address_1: a.address1, address_2: a.address2, city: a.city, state: a.state, postcode: a.postcode, country: a.country }
    : undefined;
}

export function settingsHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.SettingsServiceService> {
  const { site } = domain;
  return {
    async getSiteSettings() {
      return { settings: toProtoSite(await site.read()) };
    },
    async updateSiteSettings(req) {
      const patch: Partial<SiteOptions> = {};
      if (req.usersCanRegister !== undefined) patch.users_can_register = req.usersCanRegister;
      if (req.storeName !== undefined) patch.store_name = req.storeName;
      if (req.siteUrl !== undefined) patch.site_url = req.siteUrl;
      if (req.currency !== undefined) patch.currency = req.currency;
      if (req.pricesIncludeTax !== undefined) patch.prices_include_tax = req.pricesIncludeTax;
      if (req.logoUrl !== undefined) patch.logo_url = req.logoUrl;
      const address = fromProtoAddress(req.storeAddress);
      if (address) patch.store_address = address;
      return { settings: toProtoSite(await site.update(patch)) };
    },
    async getStoreSettings() {
      const s = await site.store();
      return {
        settings: {
          site: toProtoSite(s.site),
          pages: { shop: s.pages.shop, cart: s.pages.cart, checkout: s.pages.checkout, myAccount: s.pages.my_account, terms: s.pages.terms },
          currencySymbol: s.currency_symbol,
          currencyPosition: s.currency_position,
          thousandSeparator: s.thousand_separator,
          decimalSeparator: s.decimal_separator,
          priceDecimals: s.price_decimals,
          guestCheckout: s.guest_checkout,
          placeOrderLabel: s.place_order_label,
          minPasswordLength: s.min_password_length,
          addons: s.addons,
          weightUnit: s.weight_unit,
          dimensionUnit: s.dimension_unit,
        },
      };
    },
  };
}
