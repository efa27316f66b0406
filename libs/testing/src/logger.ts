import { pino, type Logger } from 'pino';

/** Test logs stay quiet unless TEST_LOG_LEVEL asks for them. */
export function silentLogger(): Logger {
  return pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}
