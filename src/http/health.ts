import { Type } from 'typebox';
import { localTimestamp, unixSeconds } from '../clock.js';
import { diskSpace } from '../fs/disk-space.js';
import { mappedBytes, megabytes, readMemory } from '../process/memory.js';
import { recentAnswer } from './recent-answer.js';
import type { StationApp } from './station-app.js';
import { verificationStats, verifierBackend } from '../nostr/verify.js';
import type { IndexerHealth } from '../economy/ledger.js';

const RelayState = Type.Object({
  url: Type.String(),
  role: Type.Union([Type.Literal('station'), Type.Literal('extra')]),
  status: Type.String({
    description: 'connecting, open or closed; an open connection whose pong is late is closed and renewed',
  }),
  subscription: Type.String({
    description:
      'live (the relay answered the REQ of this connection with EOSE, and no AUTH is under way that will replace it), auth-required, closed or none (no connection, or the REQ not answered yet)',
  }),
  last_event_age_seconds: Type.Union([Type.Integer(), Type.Null()]),
  reconnects: Type.Integer(),
});

const SisterState = Type.Object({
  url: Type.String(),
  status: Type.Union([Type.Literal('connected'), Type.Literal('syncing'), Type.Literal('down')]),
  last_sync_at: Type.Union([Type.Integer(), Type.Null()], {
    description: 'unix seconds of the last finished sync',
  }),
  events_in: Type.Integer({ description: 'events received from the sister that were new here' }),
  events_out: Type.Integer({ description: 'events sent to the sister that were new there' }),
  received: Type.Integer({ description: 'EVENT messages received from the sister, duplicates included' }),
  method: Type.Union([Type.Literal('nip77'), Type.Literal('req'), Type.Null()], {
    description: 'how the last sync ran: NIP-77, or a REQ since the previous sync for a sister without it',
  }),
});

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  relay: Type.String({
    description:
      'connected or disconnected: the station relay (RELAY_URL) is connected once its connection is open and its subscription live, so that a login published now reaches the station',
  }),
  relays: Type.Array(RelayState),
  relay_store: Type.Union([
    Type.Object({
      ok: Type.Boolean(),
      events: Type.Integer(),
      error: Type.Union([Type.String(), Type.Null()]),
      connections: Type.Optional(
        Type.Integer({ description: 'open client connections of the embedded relay' }),
      ),
      queued_bytes: Type.Optional(
        Type.Integer({ description: 'bytes queued for sending to all its clients, not yet written' }),
      ),
      answer_events_read: Type.Optional(
        Type.Integer({
          description:
            'stored events read to answer REQs since its thread started: an answer is read a page at a time, only while its client takes the pages',
        }),
      ),
      thread_restarts: Type.Optional(
        Type.Integer({
          description: 'times its thread died and was started again since the station started',
        }),
      ),
    }),
    Type.Null(),
  ]),
  content_store: Type.String(),
  swarm: Type.Array(SisterState, { description: 'sister stations (SWARM_RELAYS) and their sync' }),
  indexer: Type.Union(
    [
      Type.Object({
        state: Type.Union([Type.Literal('closed'), Type.Literal('open'), Type.Literal('half-open')], {
          description:
            'closed: queries go to the indexer; open: its last queries failed, so queries fail at once (stale or 503 answers) until retry_in_seconds; half-open: one query is let through to probe it',
        }),
        consecutive_failures: Type.Integer({ description: 'failed queries since the last that worked' }),
        retry_in_seconds: Type.Union([Type.Integer(), Type.Null()], {
          description: 'while open: seconds before a query is let through again',
        }),
      }),
      Type.Null(),
    ],
    {
      description: 'The Ğ1 indexer (SQUID_URL) as the economy read-outs see it; never makes status degraded',
    },
  ),
  disk: Type.Union(
    [
      Type.Object({
        free_mb: Type.Integer({ description: 'free space of the file system holding DATA_ROOT' }),
        low: Type.Boolean({ description: 'under DISK_MIN_FREE_MB: uploads may soon fail with 507' }),
      }),
      Type.Null(),
    ],
    { description: 'Read at most every 2 s; null when DATA_ROOT cannot be measured' },
  ),
  memory: Type.Union(
    [
      Type.Object({
        heap_used_mb: Type.Integer({ description: 'V8 heap in use' }),
        heap_total_mb: Type.Integer({ description: 'V8 heap allocated' }),
        rss_mb: Type.Integer({
          description: 'resident set, about anonymous_mb + file_backed_mb: what PM2 and top show',
        }),
        anonymous_mb: Type.Union([Type.Integer(), Type.Null()], {
          description:
            'resident memory only this process can free (heap, Buffers, native allocations); with its pages swapped out, what MEMORY_LIMIT_MB is held against; null where /proc/self/status is missing',
        }),
        file_backed_mb: Type.Union([Type.Integer(), Type.Null()], {
          description:
            'resident pages of mapped files (the LMDB stores, tmpfs files included), which the kernel reclaims at will: never counted against MEMORY_LIMIT_MB; null where /proc/self/status is missing',
        }),
      }),
      Type.Null(),
    ],
    {
      description:
        'Read at most every second, MB of 1024 × 1024; null when the process cannot read its memory',
    },
  ),
  nostr_verification: Type.Object(
    { backend: Type.String(), checks: Type.Integer(), cache_hits: Type.Integer() },
    {
      description:
        'Signature checks this process ran; events already verified (in memory or in the store) are hits',
    },
  ),
  users: Type.Integer(),
  timestamp: Type.String(),
});

function indexerState(health: IndexerHealth | null) {
  return (
    health && {
      state: health.state,
      consecutive_failures: health.consecutiveFailures,
      retry_in_seconds: health.retryInMs === null ? null : Math.ceil(health.retryInMs / 1000),
    }
  );
}

/**
 * Degraded only for what the station cannot work without: its own relay link (open, pongs on time, and its
 * subscription answered on this connection: until then a login published to the relay is lost, since relays
 * never store kind 22242), the embedded relay's store (when it runs here), the content store and free disk
 * space. An optional extra relay being down shows in `relays` only, the indexer in `indexer` only.
 */
export async function healthRoutes(app: StationApp): Promise<void> {
  const now = () => app.clock.now();
  const { dataRoot, diskMinFreeBytes } = app.config;
  const disk = recentAnswer(() => diskSpace(dataRoot, diskMinFreeBytes), 2_000, now);
  const storeHealth = recentAnswer(() => app.contentStore.health(), 1_000, now);
  const memory = recentAnswer(() => readMemory(), 1_000, now);
  app.get(
    '/health',
    { schema: { summary: 'Liveness and dependency status', tags: ['station'], response: { 200: Health } } },
    async () => {
      const [store, space, usage] = await Promise.all([
        storeHealth(),
        disk().catch(() => null),
        memory().catch(() => null),
      ]);
      const relayStore = app.relayStore?.() ?? null;
      const seconds = unixSeconds(app.clock);
      const links = app.relay.health();
      const station = links.find((relay) => relay.role === 'station');
      const relayReady = station?.status === 'open' && station.subscription === 'live';
      const healthy = relayReady && store.ok && (relayStore?.ok ?? true) && !space?.low;
      return {
        status: healthy ? ('ok' as const) : ('degraded' as const),
        relay: relayReady ? 'connected' : 'disconnected',
        relays: links.map((relay) => ({
          url: relay.url,
          role: relay.role,
          status: relay.status,
          subscription: relay.subscription,
          last_event_age_seconds:
            relay.lastEventAt === null ? null : Math.max(0, seconds - relay.lastEventAt),
          reconnects: relay.reconnects,
        })),
        relay_store: relayStore,
        content_store: store.ok ? store.detail : 'unavailable',
        swarm: app.swarm?.() ?? [],
        indexer: indexerState(app.ledger.indexerHealth()),
        disk: space && { free_mb: Math.floor(space.freeBytes / 1024 / 1024), low: space.low },
        memory: usage && {
          heap_used_mb: megabytes(usage.heapUsed),
          heap_total_mb: megabytes(usage.heapTotal),
          rss_mb: megabytes(usage.rss),
          anonymous_mb: megabytes(usage.anonymous),
          file_backed_mb: megabytes(mappedBytes(usage)),
        },
        nostr_verification: {
          backend: verifierBackend,
          checks: verificationStats.checks,
          cache_hits: verificationStats.cacheHits,
        },
        users: app.users.size,
        timestamp: localTimestamp(app.clock.now()),
      };
    },
  );
}
