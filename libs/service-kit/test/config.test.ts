import { describe, expect, it } from '@jest/globals';
import { Type } from 'typebox';
import { BaseConfigSchema, ConfigError, loadConfig, parseAddons } from '../src';

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
