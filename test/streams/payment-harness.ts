import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { NostrEvent } from 'nostr-tools';
import { Relay } from 'nostr-tools/relay';
import { pino } from 'pino';
import type { Subscription } from 'rxjs';
import { createAuthServices } from '../../src/auth/services.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { PayeeResolver } from '../../src/economy/payments/payee.js';
import type { PaymentRecord } from '../../src/economy/payments/record.js';
import {
  createPayments,
  type PaymentService,
  type ReactionOutcome,
} from '../../src/economy/payments/service.js';
import { UserStore } from '../../src/identity/user-store.js';
import { StationView } from '../../src/view/station-view.js';
import { STATION_KINDS } from '../../streams/kinds.js';
import { RelayClient, signerFromSecretKey } from '../../streams/relay-client.js';
import { startStreams } from '../../streams/index.js';
import { keyFromSecret, signEvent, type TestKey } from '../helpers/nostr.js';
import { TEST_STATION_KEY, waitFor } from '../helpers/relay.js';

/** How the recording stand-in for PAYMENT_COMMAND behaves. */
export interface RecorderOptions {
  /** Exit 3 on the first call for each reaction, succeed on the next. */
  failFirst?: boolean;
  /** Seconds to sleep before succeeding (a slow Ğ1 node). */
  sleepSeconds?: number;
  /** Hang until the test creates `<dir>/release` (a Ğ1 node that does not answer). */
  gate?: boolean;
}

/**
 * Writes a stand-in payment command: it appends its argv to `calls.log` on every call and to
 * `transfers.log` when it "pays" (one `write` per line, so concurrent runs never interleave a line).
 */
export async function writeRecorder(dir: string, options: RecorderOptions = {}): Promise<string> {
  await mkdir(dir, { recursive: true });
  const script = join(dir, 'pay.sh');
  const lines = [
    '#!/bin/sh',
    `dir='${dir}'`,
    'printf "%s\\n" "$*" >> "$dir/calls.log"',
    'id=$(printf "%s" "$5" | tail -c 64)',
    options.failFirst
      ? 'if [ ! -e "$dir/failed-$id" ]; then : > "$dir/failed-$id"; echo "node unreachable" >&2; exit 3; fi'
      : '',
    options.sleepSeconds ? `sleep ${options.sleepSeconds}` : '',
    options.gate ? 'while [ ! -e "$dir/release" ]; do sleep 0.05; done' : '',
    'printf "%s\\n" "$*" >> "$dir/transfers.log"',
    'echo "transfer accepted"',
  ];
  await writeFile(script, `${lines.filter(Boolean).join('\n')}\n`);
  await chmod(script, 0o755);
  return `${script} {dunikey} {amount_g1} {cents} {to} {comment}`;
}

export async function readLog(dir: string, name: 'calls.log' | 'transfers.log'): Promise<string[][]> {
  const text = await readFile(join(dir, name), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split(' '));
}

/** Everything one service process would run for payments: relay client, view, streams, payments. */
export interface Instance {
  config: Config;
  client: RelayClient;
  users: UserStore;
  view: StationView;
  payments: PaymentService;
  logs: Record<string, unknown>[];
  outcome(name: ReactionOutcome): number;
  records(): Promise<PaymentRecord[]>;
  stop(): Promise<void>;
}

export async function startInstance(options: {
  root: string;
  relayUrl: string;
  env?: Record<string, string>;
  tuning?: Parameters<typeof createPayments>[0]['tuning'];
}): Promise<Instance> {
  const config = await loadConfig({
    HOME: options.root,
    DATA_ROOT: join(options.root, 'game'),
    TMP_DIR: join(options.root, 'tmp'),
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const clock = { now: () => Date.now() };
  const users = await UserStore.open(config.dataRoot, { uplanetName: config.uplanetName, logger });
  const client = new RelayClient({
    url: options.relayUrl,
    filters: (lastSeen) => [{ kinds: [...STATION_KINDS], since: lastSeen ?? 0 }],
    signer: signerFromSecretKey(TEST_STATION_KEY.sk),
    backoff: { initialMs: 50, maxMs: 200 },
  });
  const view = new StationView();
  const payees = new PayeeResolver({ users, profiles: view, relay: client, logger, queryTimeoutMs: 1_000 });
  const payments = await createPayments({
    config,
    clock,
    users,
    payees,
    logger,
    tuning: { retryBaseMs: 50, scanIntervalMs: 200, lockStaleMs: 2_000, ...options.tuning },
  });
  const auth = await createAuthServices({ config, clock, logger });
  payments.start();
  // As the station does: streams first, then the connection, so the relay's backfill reaches them.
  const streams: Subscription = startStreams({
    client,
    auth,
    logger,
    view,
    users,
    payments,
    errors: view.errors,
  });
  client.start();
  await waitFor(() => client.health()[0]?.subscription === 'live');
  return {
    config,
    client,
    users,
    view,
    payments,
    logs,
    outcome: (name) => payments.outcomes.get(name) ?? 0,
    records: async () => {
      const records: PaymentRecord[] = [];
      for await (const record of payments.journal.all()) records.push(record);
      return records;
    },
    stop: async () => {
      streams.unsubscribe();
      await payments.stop();
      await client.stop();
      users.close();
    },
  };
}

/** A local user made the way the station makes them; its NOSTR key signs the test's events. */
export async function addUser(
  users: UserStore,
  email: string,
): Promise<{ key: TestKey; email: string; g1pub: string }> {
  const created = await users.create({ email });
  return { key: keyFromSecret(created.keys.nostr.secretKey), email, g1pub: created.keys.g1.address };
}

export function like(
  liker: TestKey,
  authorHex: string,
  options: { content?: string; tags?: string[][]; created_at?: number } = {},
): NostrEvent {
  const reacted = signEvent(liker, { kind: 1, content: `note ${Math.random()}` }).id;
  return signEvent(liker, {
    kind: 7,
    content: options.content ?? '+',
    tags: options.tags ?? [
      ['e', reacted],
      ['p', authorHex],
    ],
    created_at: options.created_at,
  });
}

/** Publishes many events over one connection, as a busy client would. */
export async function publishAll(url: string, events: NostrEvent[]): Promise<void> {
  const relay = await Relay.connect(url);
  try {
    await Promise.all(events.map((event) => relay.publish(event)));
  } finally {
    relay.close();
  }
}

export async function countRecords(instance: Instance): Promise<number> {
  return (await readdir(instance.payments.journal.records)).filter((name) => name.endsWith('.json')).length;
}

export async function waitForStatus(instance: Instance, id: string, status: string): Promise<PaymentRecord> {
  await waitFor(async () => (await instance.payments.journal.read(id))?.status === status);
  return (await instance.payments.journal.read(id))!;
}
