// What a process without a database (the gateway) needs from the kit: config,
// logging, addons. Importing it loads neither MikroORM nor pg (the main entry
// does, through startService).
export { loadConfig, BaseConfigSchema, ConfigError, type BaseConfig } from './config';
export { createLogger, type Logger } from './logger';
export { KNOWN_ADDONS, parseAddons, type Addon } from './addons';
