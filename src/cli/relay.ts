import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock, unixSeconds } from '../clock.js';
import { writeStreamAtomic } from '../fs/atomic.js';
import { eventLine, storedEvents, type ExportFilter } from '../relay/store/export-events.js';
import type { CliCommand } from './command.js';

const HELP = `usage:
  station relay export [--since <unix>] [--until <unix>] [--kinds 1,7,...] [--out <file>]

Writes the events of the embedded relay (DATA_ROOT/relay/store) as JSON lines, one signed event a line,
oldest first: the input of \`strfry import\`. Safe while the station runs (read-only, one snapshot).
To stdout, or to --out (written under a temporary name, then renamed). The count goes to stderr.`;

/** Lines are written in chunks of about this size: one write per event would cost a system call each. */
const CHUNK_CHARS = 64 * 1024;

function seconds(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,12}$/.test(value)) throw new Error(`--${name} must be a unix time in seconds`);
  return Number(value);
}

function kindList(value: string | undefined): Set<number> | undefined {
  if (value === undefined) return undefined;
  const kinds = value.split(',').map((item) => item.trim());
  if (kinds.some((kind) => !/^\d{1,5}$/.test(kind))) throw new Error('--kinds must be numbers, e.g. 1,7');
  return new Set(kinds.map(Number));
}

async function* chunks(lines: AsyncIterable<string>): AsyncGenerator<Buffer> {
  let pending = '';
  for await (const line of lines) {
    pending += `${line}\n`;
    if (pending.length >= CHUNK_CHARS) {
      yield Buffer.from(pending);
      pending = '';
    }
  }
  if (pending) yield Buffer.from(pending);
}

async function toStdout(source: AsyncIterable<Buffer>): Promise<void> {
  for await (const chunk of source) {
    if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
  }
}

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, out }) {
    const [action, ...rest] = args;
    let values;
    let filter: ExportFilter;
    try {
      ({ values } = parseArgs({
        args: rest,
        options: {
          since: { type: 'string' },
          until: { type: 'string' },
          kinds: { type: 'string' },
          out: { type: 'string' },
          help: { type: 'boolean', default: false },
        },
      }));
      filter = {
        since: seconds('since', values.since),
        until: seconds('until', values.until),
        kinds: kindList(values.kinds),
        now: unixSeconds(systemClock),
      };
    } catch (error) {
      console.error((error as Error).message);
      out(HELP);
      return 2;
    }
    if (values.help || action !== 'export') {
      out(HELP);
      return values.help ? 0 : 2;
    }
    let count = 0;
    const lines = async function* () {
      for await (const event of storedEvents(join(config.dataRoot, 'relay', 'store'), filter)) {
        count += 1;
        yield eventLine(event);
      }
    };
    if (values.out) await writeStreamAtomic(resolve(values.out), chunks(lines()), { mode: 0o600 });
    else await toStdout(chunks(lines()));
    console.error(`${count} events exported`);
    return 0;
  },
};
