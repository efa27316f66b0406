import { projectConfig } from '../../jest.preset.js';
export default { ...projectConfig('orders'), testTimeout: 30_000 };
