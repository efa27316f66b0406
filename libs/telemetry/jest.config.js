import { projectConfig } from '../../jest.preset.js';
export default projectConfig('telemetry');
