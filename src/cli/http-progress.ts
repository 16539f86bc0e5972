/** Redraws at most this often: a fast local upload would otherwise spend its time writing to the terminal. */
const REDRAW_MS = 100;

const mb = (bytes: number) => (bytes / 1_000_000).toFixed(1);

export interface Progress {
  update(bytes: number): void;
  done(): void;
}

const silent: Progress = { update: () => undefined, done: () => undefined };

/**
 * One `\r`-redrawn line on stderr (label, percent, bytes, MB/s) while `total` bytes go by; nothing at all when
 * stderr is not a terminal, so scripts and logs get no control characters.
 */
export function progressLine(
  label: string,
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  if (!stream.isTTY) return silent;
  const started = Date.now();
  let drawnAt = 0;
  let last = 0;
  let lastAt = started;
  // The rate is taken at the last byte, not at the answer, which also waits for the station's work.
  const draw = (bytes: number) => {
    const seconds = Math.max((lastAt - started) / 1000, 0.001);
    const percent = total > 0 ? Math.floor((bytes / total) * 100) : 100;
    const line = `${label} ${String(percent).padStart(3)}%  ${mb(bytes)} / ${mb(total)} MB  ${mb(bytes / seconds)} MB/s`;
    stream.write(`\r${line.padEnd(60)}`);
  };
  return {
    update(bytes) {
      last = bytes;
      const now = Date.now();
      lastAt = now;
      if (now - drawnAt < REDRAW_MS) return;
      drawnAt = now;
      draw(bytes);
    },
    done() {
      draw(last);
      stream.write('\n');
    },
  };
}
