import { customers } from '@storefront/proto/customers';
import type { ServiceHandlers } from '@storefront/service-kit';
import type { CustomersDomain } from '../domain';
import { signedInUser } from './caller';
import { toProtoPrincipal, toProtoSession } from './mappers';

function toProtoApplicationPassword(r: { uuid: string; name: string; createdAt: Date; lastUsedAt?: Date | null }) {
  return { uuid: r.uuid, name: r.name, created: r.createdAt, lastUsed: r.lastUsedAt ?? undefined };
}

export function authHandlers(domain: CustomersDomain): ServiceHandlers<typeof customers.AuthServiceService> {
  return {
    async login(req, caller) {
      const result = await domain.login.login({
        identifier: req.identifier,
        password: req.password,
        remember: req.remember,
        redirectTo: req.redirectTo,
        clientIp: caller.clientIp,
      });
      return {
        session: toProtoSession(result.session),
        principal: toProtoPrincipal(result.principal),
        redirectUrl: result.redirectUrl,
      };
    },
    async register(req) {
      const result = await domain.registration.register({
        email: req.email,
        password: req.password,
        firstName: req.firstName,
        lastName: req.lastName,
        autoLogin: req.autoLogin,
      });
      return {
        principal: toProtoPrincipal(result.principal),
        session: result.session ? toProtoSession(result.session) : undefined,
        redirectUrl: result.redirectUrl,
      };
    },
    async requestPasswordReset(req, caller) {
      await domain.passwordReset.request(req.email, caller.clientIp);
      return {};
    },
    async resetPassword(req) {
      return { redirectUrl: await domain.passwordReset.reset(req.key, req.login, req.password) };
    },
    async resolveSession(req) {
      const { principal, session } = await domain.sessions.resolve(req.sessionId);
      return { principal: toProtoPrincipal(principal), session: toProtoSession(session) };
    },
    async endSession(req) {
      await domain.sessions.end(req.sessionId);
      return {};
    },
    async authenticateApplicationPassword(req, caller) {
      return { principal: toProtoPrincipal(await domain.applicationPasswords.authenticate(req.identifier, req.password, caller.clientIp)) };
    },
    async createApplicationPassword(req, caller) {
      const { record, password } = await domain.applicationPasswords.create(signedInUser(caller), req.name);
      return { applicationPassword: toProtoApplicationPassword(record), password };
    },
    async listApplicationPasswords(_req, caller) {
      const records = await domain.applicationPasswords.list(signedInUser(caller));
      return { applicationPasswords: records.map(toProtoApplicationPassword) };
    },
    async revokeApplicationPassword(req, caller) {
      const record = await domain.applicationPasswords.revoke(signedInUser(caller), req.uuid);
      return { applicationPassword: toProtoApplicationPassword(record) };
    },
  };
}
