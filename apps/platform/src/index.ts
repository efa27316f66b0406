export { startPlatform, type Platform, type PlatformOptions } from './start-platform';
export { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
export { PLATFORM_SERVICES } from './services';
