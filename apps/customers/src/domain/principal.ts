import type { User } from '../persistence/entities';
import { capabilitiesOf } from '@storefront/access';

export interface Principal {
  userId: number;
  login: string;
  email: string;
  displayName: string;
  roles: string[];
  capabilities: string[];
}

export function principalOf(user: User): Principal {
  return {
    userId: user.id,
    login: user.login,
    email: user.email,
    displayName: user.displayName,
    roles: user.roles,
    capabilities: capabilitiesOf(user.roles),
  };
}
