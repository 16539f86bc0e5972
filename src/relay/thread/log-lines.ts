import type { Logger } from 'pino';

/**
 * Writes a pino JSON line of the relay thread with the station's logger, so the operator gets one stream in one
 * format (pretty on a terminal, JSON otherwise) and the station's level and redaction apply to it too.
 */
export function forwardLogLine(logger: Logger, line: string): void {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return;
  }
  const { level, msg, time: _time, ...fields } = record;
  const name = typeof level === 'number' ? logger.levels.labels[level] : undefined;
  const write = name && name in logger ? logger[name as 'info'].bind(logger) : logger.info.bind(logger);
  write({ ...fields, thread: 'relay' }, typeof msg === 'string' ? msg : '');
}
