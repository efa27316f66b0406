export { ROLES, ADMIN_ROLE, CUSTOMER_ROLE, MANAGER_ROLE, capabilitiesOf, isKnownRole } from './roles';
export { can, canAny, denied, type Principal } from './checks';
