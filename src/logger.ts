import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PinoPretty } from 'pino-pretty';

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

export type LogFormat = 'auto' | 'pretty' | 'json';

export interface LoggerSettings {
  level?: LoggerOptions['level'];
  /** `auto`: pretty when the output is a terminal (a person reads it), JSON otherwise (a collector does). */
  format?: LogFormat;
  /** Where lines go (default: stdout). */
  output?: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * Pretty lines: local time, coloured level names, the message first and its fields after it. Fields that
 * say the same thing for every line of one process (pid, hostname) are left out.
 */
function prettyStream(output: NodeJS.WritableStream & { isTTY?: boolean }): DestinationStream {
  return PinoPretty({
    destination: output,
    colorize: output.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

export function createLogger(settings: LoggerSettings | LoggerOptions['level'] = {}): Logger {
  const {
    level = 'info',
    format = 'auto',
    output = process.stdout,
  } = typeof settings === 'object' ? settings : { level: settings };
  const options: LoggerOptions = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  const pretty = format === 'pretty' || (format === 'auto' && output.isTTY === true);
  if (pretty) return pino(options, prettyStream(output));
  return output === process.stdout ? pino(options) : pino(options, output as DestinationStream);
}
