import { pino, type Logger, type LoggerOptions } from 'pino';

/** Header and field names whose values must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'nsec',
  'salt',
  'pepper',
  '*.nsec',
  '*.salt',
  '*.pepper',
];

export function createLogger(level: LoggerOptions['level'] = 'info'): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } });
}
