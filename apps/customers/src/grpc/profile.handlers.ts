import type { customers } from '@storefront/proto/customers';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import type { User } from '../persistence/entities';
import { fromAddressPatch, toProtoAddress, toProtoProfile } from './mappers';

const notifications = (u: User) => ({
  subscribeToEmail: u.subscribeToEmail,
  orderEmail: u.orderEmail,
  marketingEmail: u.marketingEmail,
});
const privacy = (u: User) => ({ dataSharingConsent: u.dataSharingConsent, profilingConsent: u.profilingConsent });

/** The caller's own account: each RPC maps to one domain call (the domain checks the caller has an account). */
export function profileHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.ProfileServiceService> {
  const { profile } = domain;
  return {
    async getProfile(_req, caller) {
      return { profile: toProtoProfile(await profile.get(caller.userId)) };
    },
    async updateProfile(req, caller) {
      return { profile: toProtoProfile(await profile.update(caller.userId, req)) };
    },
    async changePassword(req, caller) {
      await profile.changePassword(caller.userId, req.currentPassword, req.newPassword, caller.sessionId, caller.clientIp);
      return {};
    },
    async getAddresses(_req, caller) {
      const user = await profile.get(caller.userId);
      return { billing: toProtoAddress(user.billing), shipping: toProtoAddress(user.shipping) };
    },
    async updateAddress(req, caller) {
      return { address: toProtoAddress(await profile.updateAddress(caller.userId, req.kind, fromAddressPatch(req.address) ?? {})) };
    },
    async getNotificationPreferences(_req, caller) {
      return { preferences: notifications(await profile.get(caller.userId)) };
    },
    async updateNotificationPreferences(req, caller) {
      return { preferences: notifications(await profile.updateNotifications(caller.userId, req)) };
    },
    async getPrivacyPreferences(_req, caller) {
      return { preferences: privacy(await profile.get(caller.userId)) };
    },
    async updatePrivacyPreferences(req, caller) {
      return { preferences: privacy(await profile.updatePrivacy(caller.userId, req)) };
    },
    async requestErasure(_req, caller) {
      const request = await profile.requestErasure(caller.userId);
      return { requestId: request.id, status: request.status };
    },
    async getMenu(_req, caller) {
      return { items: await profile.menu(caller.userId) };
    },
  };
}
