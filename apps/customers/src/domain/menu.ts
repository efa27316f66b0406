import { sitePageUrl } from '@storefront/grpc-client';

export interface MenuItem {
  id: string;
  label: string;
  url: string;
  order: number;
  icon: string;
}

/**
 * The dashboard sidebar, sorted by `order`. "Payment methods" appears only
 * when an active gateway supports tokenization (the card addon's test_card);
 * the subscriptions addon adds "Subscriptions".
 */
export function dashboardMenu(siteUrl: string, addons: string[]): MenuItem[] {
  const url = (path: string) => sitePageUrl(siteUrl, `/my-account/${path}`);
  const items: MenuItem[] = [
    { id: 'dashboard', label: 'Dashboard', url: url(''), order: 10, icon: 'dashboard' },
    { id: 'orders', label: 'Orders', url: url('orders/'), order: 20, icon: 'orders' },
    { id: 'downloads', label: 'Downloads', url: url('downloads/'), order: 30, icon: 'downloads' },
    { id: 'addresses', label: 'Addresses', url: url('addresses/'), order: 40, icon: 'addresses' },
    { id: 'account', label: 'Account details', url: url('account/'), order: 60, icon: 'account' },
  ];
  if (addons.includes('card')) {
    items.push({ id: 'payment-methods', label: 'Payment methods', url: url('payment-methods/'), order: 50, icon: 'payment-methods' });
  }
  if (addons.includes('subscriptions')) {
    items.push({ id: 'subscriptions', label: 'Subscriptions', url: url('subscriptions/'), order: 25, icon: 'subscriptions' });
  }
  return items.sort((a, b) => a.order - b.order);
}
