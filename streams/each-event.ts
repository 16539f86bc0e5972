import type { NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import { catchError, defer, EMPTY, mergeMap, type OperatorFunction } from 'rxjs';

/** Per-stream count of events whose handler threw (the stream itself carries on). */
export type StreamErrors = Record<string, number>;

export interface EachEventOptions {
  /** Name of the stream, in logs and in `errors`. */
  name: string;
  errors?: StreamErrors;
  logger?: Logger;
  /** Events handled at once by this stream; the rest wait in order. */
  concurrency?: number;
}

/**
 * Runs `handle` for each event with errors caught per event: one bad event (or a failing disk write) is
 * logged and counted, and the stream goes on with the next one instead of completing with an error.
 */
export function eachEvent<T>(
  handle: (event: NostrEvent) => Promise<T> | T,
  options: EachEventOptions,
): OperatorFunction<NostrEvent, T> {
  return mergeMap(
    (event) =>
      defer(async () => handle(event)).pipe(
        catchError((error: unknown) => {
          if (options.errors) options.errors[options.name] = (options.errors[options.name] ?? 0) + 1;
          options.logger?.warn({ err: error, id: event.id, stream: options.name }, 'event handling failed');
          return EMPTY;
        }),
      ),
    options.concurrency ?? 1,
  );
}
