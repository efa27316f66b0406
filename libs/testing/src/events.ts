import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { TEST_NATS_URL } from './database';

export interface TestEvents {
  /** Environment for services: the real NATS, with a stream and subject prefix of this test's own. */
  env: { NATS_URL: string; EVENTS_STREAM: string; EVENTS_SUBJECT_PREFIX: string };
  cleanup(): Promise<void>;
}

/** An isolated JetStream stream on the real NATS server, deleted on cleanup. */
export function createTestEvents(): TestEvents {
  const id = randomBytes(4).toString('hex');
  const env = { NATS_URL: TEST_NATS_URL, EVENTS_STREAM: `T_${id}`, EVENTS_SUBJECT_PREFIX: `t${id}` };
  return {
    env,
    async cleanup() {
      const nc = await connect({ servers: TEST_NATS_URL });
      try {
        const jsm = await jetstreamManager(nc);
        await jsm.streams.delete(env.EVENTS_STREAM).catch(() => undefined);
      } finally {
        await nc.close();
      }
    },
  };
}
