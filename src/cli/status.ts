import { get } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Config } from '../config/config.js';
import { dialableHost } from '../net/listen.js';
import { isLoopbackUrl, relayAnswers } from '../relay/probe.js';
import type { CliCommand } from './command.js';
import { readStationFiles, type StationFiles } from './status-files.js';

const HELP = `usage:
  station status [--url <base>] [--json]

The station at a glance: the service (running or not), its relay (embedded or external, reachable, events
stored), its stores (content store, users, drive index), users and drives, free disk under DATA_ROOT and the
like payments (pending, paid, failed). With the service running, from its /health (GET over HTTP on PORT, or
--url) and from DATA_ROOT; without it, from DATA_ROOT and TMP_DIR alone, read-only. The first line says which.

Exit 0 when the service runs and says ok, 1 when it runs degraded, 3 when it does not answer.`;

/** The part of `/health` read here (docs/api-contract.md). */
interface Health {
  status: 'ok' | 'degraded';
  relay: string;
  relays: { url: string; role: string }[];
  relay_store: { ok: boolean; events: number } | null;
  content_store: string;
  disk: { free_mb: number; low: boolean } | null;
  users: number;
}

/** `/health` of the running service, or null when nothing answers there within a second. */
function fetchHealth(base: string): Promise<Health | null> {
  return new Promise((resolve) => {
    const request = get(`${base}/health`, { timeout: 1_000 }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Health);
        } catch {
          resolve(null);
        }
      });
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

function payments(counts: Record<string, number>): string {
  const n = (status: string) => counts[status] ?? 0;
  const others = ['failed', 'interrupted', 'capped'].filter((status) => n(status) > 0);
  return [
    `${n('queued') + n('sending')} pending`,
    `${n('sent')} paid`,
    ...others.map((s) => `${n(s)} ${s}`),
  ].join(', ');
}

/** Whether a station started with this configuration runs the embedded relay (station.ts, ensureRelay). */
function embeddedByConfig(config: Omit<Config, 'wallets'>): boolean {
  if (config.embeddedRelay !== 'auto') return config.embeddedRelay === 'on';
  return config.listen.relayIsDerived || isLoopbackUrl(config.relayUrl);
}

function report(
  config: Omit<Config, 'wallets'>,
  base: string,
  health: Health | null,
  files: StationFiles,
  reachable: boolean,
) {
  const embedded = health ? health.relay_store !== null : embeddedByConfig(config);
  const relayUrl = health?.relays.find((relay) => relay.role === 'station')?.url ?? config.relayUrl;
  const events = health?.relay_store?.events ?? (embedded ? files.relayEvents : null);
  const store = config.ipfsApi
    ? `Kubo at ${config.ipfsApi}`
    : `embedded (${join(config.dataRoot, 'ipfs-store')})`;
  return {
    source: health ? ('service' as const) : ('files' as const),
    service: { running: health !== null, url: base, status: health?.status ?? null },
    relay: { mode: embedded ? 'embedded' : 'external', url: relayUrl, reachable, events },
    stores: {
      content: health
        ? `${store}: ${health.content_store}`
        : `${store}${files.contentStore || config.ipfsApi ? '' : ': none yet'}`,
      users: files.users === null ? 'none yet' : join(config.dataRoot, 'nostr'),
      drive_index: !files.driveIndex ? 'none yet' : files.drives === null ? 'unreadable' : 'readable',
    },
    users: health?.users ?? files.users ?? 0,
    drives: files.drives,
    disk: health?.disk ?? (files.disk && { free_mb: files.disk.freeMb, low: files.disk.low }),
    payments: files.payments,
  };
}

type Status = ReturnType<typeof report>;

function lines(status: Status, dataRoot: string): string[] {
  const { service, relay, stores, disk } = status;
  const known = (value: number | null) => (value === null ? 'unknown' : String(value));
  return [
    service.running
      ? `service   running at ${service.url} (${service.status}): figures from its /health and from DATA_ROOT`
      : `service   not running (nothing answered at ${service.url}/health): figures read from DATA_ROOT alone`,
    `relay     ${relay.mode}, ${relay.reachable ? 'reachable' : 'not reachable'} at ${relay.url}` +
      (relay.events === null ? '' : `, ${relay.events} events stored`),
    `stores    content: ${stores.content}; users: ${stores.users}; drive index: ${stores.drive_index}`,
    `users     ${status.users}`,
    `drives    ${known(status.drives)}`,
    `disk      ${disk ? `${disk.free_mb} MB free under ${dataRoot}${disk.low ? ' (low: uploads may fail)' : ''}` : 'unknown'}`,
    `payments  ${payments(status.payments)}`,
  ];
}

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, out }) {
    const { values } = parseArgs({
      args,
      options: { url: { type: 'string' }, json: { type: 'boolean', default: false } },
    });
    const base = (values.url ?? `http://${dialableHost(config.host)}:${config.port}`).replace(/\/+$/, '');
    const [health, files] = await Promise.all([fetchHealth(base), readStationFiles(config)]);
    // The service's own view of its relay when it answers; else whether anything answers at RELAY_URL.
    const reachable = health ? health.relay === 'connected' : await relayAnswers(config.relayUrl, 500);
    const status = report(config, base, health, files, reachable);
    if (values.json) out(JSON.stringify(status));
    else for (const line of lines(status, config.dataRoot)) out(line);
    if (!health) return 3;
    return health.status === 'ok' ? 0 : 1;
  },
};
