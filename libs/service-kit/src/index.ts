export {
  loadConfig,
  BaseConfigSchema,
  RuntimeConfigSchema,
  ConfigError,
  type BaseConfig,
  type RuntimeConfig,
} from './config';
export {
  startRuntime,
  productionProblems,
  runMain,
  exitWith,
  type AppRuntime,
  type RuntimeOptions,
  type RuntimeSpec,
} from './runtime';
export { createMetrics, type Metrics } from './metrics';
export { createLogger, type Logger } from './logger';
export { defineService, type ServiceDefinition, type ServiceContext, type ServiceHandlers } from './service-definition';
export { startService, type RunningService, type StartOptions } from './start-service';
export { runService } from './run-service';
export { migrateService } from './migrate';
export { KNOWN_ADDONS, parseAddons, type Addon } from './addons';
export { HealthReporter, LIVENESS_SERVICE, type DependencyCheck } from './health';
export { intervalJob, type IntervalJob } from './interval-job';
