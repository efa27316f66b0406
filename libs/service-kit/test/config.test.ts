import { describe, expect, it } from '@jest/globals';
import { Type } from 'typebox';
import { BaseConfigSchema, ConfigError, loadConfig, parseAddons, productionProblems, RuntimeConfigSchema } from '../src';

describe('loadConfig', () => {
  const schema = Type.Object({ ...BaseConfigSchema.properties, EXTRA: Type.Integer({ minimum: 1, default: 3 }) });

  it('applies defaults and coerces numbers and booleans', () => {
    const config = loadConfig(schema, { DATABASE_URL: 'postgres://x/y', GRPC_PORT: '7000', MIGRATE_ON_BOOT: 'false' });
    expect(config).toMatchObject({ GRPC_PORT: 7000, MIGRATE_ON_BOOT: false, EXTRA: 3, NODE_ENV: 'development', EVENTS_STREAM: 'SHOP' });
  });

  it('names every bad variable in one error', () => {
    const attempt = () => loadConfig(schema, { GRPC_PORT: 'http', EXTRA: '0', NATS_URL: 'localhost:4222' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (err) {
      const message = (err as Error).message;
      expect(message).toContain('DATABASE_URL is required');
      expect(message).toContain('GRPC_PORT');
      expect(message).toContain('EXTRA');
      expect(message).toContain('NATS_URL');
    }
  });

  it('never echoes a value: a bad DATABASE_URL does not print its password', () => {
    const secret = 'hunter2-s3cret';
    try {
      loadConfig(schema, { DATABASE_URL: `mysql://app:${secret}@db/app`, NATS_URL: `http://u:${secret}@n` });
      throw new Error('expected a ConfigError');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message).toContain('DATABASE_URL is invalid');
      expect(message).toContain('NATS_URL is invalid');
      expect(message).not.toContain(secret);
    }
  });

  it('parses addons and refuses unknown ones', () => {
    expect(parseAddons(undefined)).toEqual(['subscriptions', 'embed', 'card', 'bogo']);
    expect(parseAddons('card, bogo')).toEqual(['card', 'bogo']);
    expect(parseAddons('')).toEqual([]);
    expect(() => parseAddons('card,teleport')).toThrow('teleport');
  });
});

describe('production guards (every app, the gateway included)', () => {
  const runtime = (env: NodeJS.ProcessEnv) => loadConfig(RuntimeConfigSchema, env);

  it('require NATS_URL and the app\'s own variables in production only', () => {
    expect(productionProblems(runtime({ NODE_ENV: 'production' }), ['SECRET'], false)).toEqual([
      'NATS_URL is required when NODE_ENV=production',
      'SECRET is required when NODE_ENV=production',
    ]);
    expect(productionProblems(runtime({ NODE_ENV: 'production', NATS_URL: 'nats://n:4222' }), [], false)).toEqual([]);
    expect(productionProblems(runtime({ NODE_ENV: 'development' }), ['SECRET'], false)).toEqual([]);
  });

  it('accept a shared transport handed in by the launcher instead of NATS_URL', () => {
    expect(productionProblems(runtime({ NODE_ENV: 'production' }), [], true)).toEqual([]);
  });

  it('the service schema is the runtime schema plus gRPC and database variables', () => {
    expect(Object.keys(BaseConfigSchema.properties)).toEqual(expect.arrayContaining(Object.keys(RuntimeConfigSchema.properties)));
  });
});
