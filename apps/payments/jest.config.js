import { projectConfig } from '../../jest.preset.js';
// Integration tests boot a service on real Postgres/NATS; generous for a busy machine.
export default { ...projectConfig('payments'), testTimeout: 30_000 };
