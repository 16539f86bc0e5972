import type { ClientRequest, IncomingMessage } from 'node:http';
import { StationError } from '../../errors.js';
import { MirrorFetchFailedError, MirrorTooLargeError, reasonOf } from './errors.js';
import type { TransferWatch } from './transfer-watch.js';

interface BodyLimits {
  maxBytes: number;
  /** The longest wait for each chunk. */
  timeoutMs: number;
  /** The fetch's deadline and rate floor; its signal (aborted by them or by the caller) stops the reading. */
  watch: TransferWatch;
}

/**
 * A mirrored response's body, read once: the size limit, the idle timeout and the watch's limits hold while
 * it is read, and the socket is closed however the reading ends (done, broken out of, failed or aborted).
 */
export function guardedBody(target: URL, req: ClientRequest, res: IncomingMessage, options: BodyLimits) {
  const { watch, timeoutMs, maxBytes } = options;
  const { signal } = watch;
  let stopped: unknown;
  let started = false;
  const finish = () => {
    signal.removeEventListener('abort', onAbort);
    watch.close();
    req.destroy();
  };
  const stop = (reason: unknown) => {
    stopped ??= reason;
    res.destroy();
  };
  const onAbort = () => stop(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  watch.bodyStarted();

  return {
    [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
      if (started) throw new Error('the body of a mirrored response can only be read once');
      started = true;
      const chunks = res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      let received = 0;
      return {
        async next() {
          const idle = setTimeout(
            () =>
              stop(
                new MirrorFetchFailedError({
                  en: `${target.href} sent nothing for ${timeoutMs} ms`,
                  fr: `${target.href} n’a rien envoyé pendant ${timeoutMs} ms`,
                }),
              ),
            timeoutMs,
          );
          try {
            const step = await chunks.next();
            // A socket destroyed by a limit may end the stream quietly: never a whole body, then.
            if (stopped !== undefined) throw stopped;
            if (step.done) {
              finish();
              return { done: true, value: undefined };
            }
            received += step.value.byteLength;
            watch.count(step.value.byteLength);
            if (received > maxBytes) throw tooLarge(target, maxBytes);
            return { done: false, value: step.value };
          } catch (error) {
            finish();
            if (stopped !== undefined) throw stopped;
            if (error instanceof StationError) throw error;
            const reason = reasonOf(error);
            throw new MirrorFetchFailedError(
              {
                en: `reading ${target.href} failed: ${reason}`,
                fr: `la lecture de ${target.href} a échoué : ${reason}`,
              },
              error,
            );
          } finally {
            clearTimeout(idle);
          }
        },
        async return() {
          finish();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

export const tooLarge = (target: URL, maxBytes: number) =>
  new MirrorTooLargeError({
    en: `${target.href} is larger than the ${maxBytes} bytes a mirrored blob may have`,
    fr: `${target.href} dépasse les ${maxBytes} octets permis à un blob mis en miroir`,
  });
