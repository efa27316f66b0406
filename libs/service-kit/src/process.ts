// What a process without a database (the gateway) needs from the kit: config,
// logging, addons. Importing it loads neither MikroORM nor pg (the main entry
// does, through startService).
export {
  loadConfig,
  BaseConfigSchema,
  RuntimeConfigSchema,
  ConfigError,
  type BaseConfig,
  type RuntimeConfig,
} from './config';
export { startRuntime, productionProblems, runMain, exitWith, type AppRuntime, type RuntimeOptions, type RuntimeSpec } from './runtime';
export { createMetrics, type Metrics } from './metrics';
export { createLogger, type Logger } from './logger';
export { KNOWN_ADDONS, parseAddons, type Addon } from './addons';
