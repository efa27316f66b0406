import { projectConfig } from '../../jest.preset.js';
export default { ...projectConfig('platform'), testTimeout: 30_000 };
