import { type Logger, pino } from 'pino';

/** Paths pino replaces with `[redacted]`: credentials never reach a log line. */
export const REDACT_PATHS = [
  'authorization',
  'token',
  'secret',
  '*.authorization',
  '*.token',
  '*.secret',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-keygate-identity"]',
  'req.headers["x-keygate-identity"]',
];

/** The gateway's structured logger. */
export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'keygate-gateway' },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
