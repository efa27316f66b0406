import { invalidParams } from '@storefront/errors';
import { customers } from '@storefront/proto';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { User } from '../persistence/entities';
import { dashboardMenu } from '../domain/menu';
import { readSiteOptions } from '../domain/site-options';
import { signedInUser } from './caller';
import { fromAddressPatch, toProtoAddress, toProtoProfile } from './mappers';

const notifications = (u: User) => ({
  subscribeToEmail: u.subscribeToEmail,
  orderEmail: u.orderEmail,
  marketingEmail: u.marketingEmail,
});
const privacy = (u: User) => ({ dataSharingConsent: u.dataSharingConsent, profilingConsent: u.profilingConsent });

export function profileHandlers(
  domain: CustomersDomain,
  addons: string[],
): ServiceHandlers<typeof customers.ProfileServiceService> {
  const { profile } = domain;
  return {
    async getProfile(_req, caller) {
      return { profile: toProtoProfile(await profile.get(signedInUser(caller))) };
    },
    async updateProfile(req, caller) {
      return { profile: toProtoProfile(await profile.update(signedInUser(caller), req)) };
    },
    async changePassword(req, caller) {
      await profile.changePassword(signedInUser(caller), req.currentPassword, req.newPassword, caller.sessionId, caller.clientIp);
      return {};
    },
    async getAddresses(_req, caller) {
      const user = await profile.get(signedInUser(caller));
      return { billing: toProtoAddress(user.billing), shipping: toProtoAddress(user.shipping) };
    },
    async updateAddress(req, caller) {
      if (req.kind !== 'billing' && req.kind !== 'shipping') throw invalidParams({ kind: 'kind must be billing or shipping.' });
      const user = await profile.updateAddress(signedInUser(caller), req.kind, fromAddressPatch(req.address) ?? {});
      return { address: toProtoAddress(user[req.kind]) };
    },
    async getNotificationPreferences(_req, caller) {
      return { preferences: notifications(await profile.get(signedInUser(caller))) };
    },
    async updateNotificationPreferences(req, caller) {
      return { preferences: notifications(await profile.updateNotifications(signedInUser(caller), req)) };
    },
    async getPrivacyPreferences(_req, caller) {
      return { preferences: privacy(await profile.get(signedInUser(caller))) };
    },
    async updatePrivacyPreferences(req, caller) {
      return { preferences: privacy(await profile.updatePrivacy(signedInUser(caller), req)) };
    },
    async requestErasure(_req, caller) {
      const request = await profile.requestErasure(signedInUser(caller));
      return { requestId: request.id, status: request.status };
    },
    async getMenu(_req, caller) {
      await profile.get(signedInUser(caller));
      const site = await readSiteOptions(domain.deps.db.em(), domain.deps.config);
      return { items: dashboardMenu(site.site_url, addons) };
    },
  };
}
