export { ROLES, ADMIN_ROLE, CUSTOMER_ROLE, MANAGER_ROLE, capabilitiesOf, isKnownRole } from './roles';
