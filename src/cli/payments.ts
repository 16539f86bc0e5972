import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { localTimestamp } from '../clock.js';
import { PaymentJournal } from '../economy/payments/journal.js';
import {
  isPaymentStatus,
  transition,
  type PaymentRecord,
  type PaymentStatus,
} from '../economy/payments/record.js';
import type { CliCommand } from './command.js';
import { printTable } from './table.js';

const HELP = `usage:
  station payments list [--status <queued|sending|sent|failed|interrupted|capped>] [--json]
  station payments retry <reaction id>     re-queue one failed, interrupted or capped payment
  station payments retry --failed          re-queue every failed payment

An interrupted payment may have reached the chain: look for a transfer whose comment ends with the
reaction id before retrying it. A running service picks re-queued payments up within its scan interval.`;

/** What an operator may send again; `sent` never, `queued`/`sending` are already on their way. */
const RETRYABLE: ReadonlySet<PaymentStatus> = new Set(['failed', 'interrupted', 'capped']);

const COLUMNS = [
  'reaction id',
  'status',
  'amount',
  'payee wallet',
  'payer',
  'attempts',
  'updated',
  'last error',
];

function row(record: PaymentRecord): string[] {
  return [
    record.id,
    record.status,
    `${record.amount_g1} Ğ1`,
    record.payee.wallet,
    record.payer.email,
    String(record.attempts),
    record.updated_at,
    record.last_error ?? '',
  ];
}

async function retry(journal: PaymentJournal, id: string, now: string): Promise<string> {
  const done = await journal.withLock(id, async () => {
    const record = await journal.read(id);
    if (!record) return `${id}: no such payment`;
    if (!RETRYABLE.has(record.status)) return `${id}: is ${record.status}, not retried`;
    const from = record.status;
    await journal.write(
      transition(record, 'queued', now, { attempts: 0, next_attempt_at: 0 }, `operator retry (was ${from})`),
    );
    return `${id}: queued (was ${from})`;
  });
  return done?.value ?? `${id}: being sent by a running service right now, not retried`;
}

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, out }) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        status: { type: 'string' },
        json: { type: 'boolean', default: false },
        failed: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help || !action) {
      out(HELP);
      return action ? 0 : 2;
    }
    const journal = await new PaymentJournal(join(config.tmpDir, 'payments')).init();
    if (action === 'list') {
      if (values.status !== undefined && !isPaymentStatus(values.status)) {
        console.error(`unknown status "${values.status}"\n${HELP}`);
        return 2;
      }
      const records: PaymentRecord[] = [];
      for await (const record of journal.all())
        if (!values.status || record.status === values.status) records.push(record);
      records.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
      if (values.json) out(JSON.stringify(records));
      else {
        const which = values.status ? ` ${values.status}` : '';
        printTable(out, COLUMNS, records.map(row), `no${which} payments in the journal (${journal.root})`);
      }
      return 0;
    }
    if (action === 'retry') {
      const now = localTimestamp(Date.now());
      const ids = values.failed ? await failedIds(journal) : positionals;
      if (ids.length === 0 && !values.failed) {
        console.error(HELP);
        return 2;
      }
      let refused = 0;
      for (const id of ids) {
        if (!/^[0-9a-f]{64}$/.test(id)) {
          console.error(`${id}: not a reaction event id (64 hex characters)`);
          return 2;
        }
        const message = await retry(journal, id, now);
        if (!message.includes(': queued')) refused++;
        out(message);
      }
      return refused > 0 && !values.failed ? 1 : 0;
    }
    console.error(HELP);
    return 2;
  },
};

async function failedIds(journal: PaymentJournal): Promise<string[]> {
  const ids: string[] = [];
  for await (const record of journal.all()) if (record.status === 'failed') ids.push(record.id);
  return ids;
}
