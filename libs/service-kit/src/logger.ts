import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured JSON logs; credentials and personal secrets never reach them. */
export function createLogger(name: string, level = 'info'): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: [
        'password',
        '*.password',
        '*.new_password',
        '*.current_password',
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-platform-nonce"]',
        'res.headers["set-cookie"]',
        '*.key',
        '*.token',
      ],
      censor: '[redacted]',
    },
  });
}
