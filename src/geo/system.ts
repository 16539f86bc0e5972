import { LRUCache } from 'lru-cache';
import pLimit from 'p-limit';
import type { FastifyBaseLogger } from 'fastify';
import { localTimestamp, type Clock } from '../clock.js';
import type { Config } from '../config/config.js';
import { balanceZen, centsToG1 } from '../economy/amounts.js';
import type { Ledger } from '../economy/ledger.js';
import type { LatLon } from './coordinates.js';
import { cellKey, distanceKm, regionName, sectorName, umapOf, type Cell } from './grid.js';
import type { UserGridIndex } from './user-index.js';

export interface SystemQuery {
  center: LatLon | null;
  deg: number;
}

export interface UmapEntry {
  LAT: number;
  LON: number;
  SECTOR: string;
  REGION: string;
  USERS: number;
}

export interface SystemData {
  DATE: string;
  G1: number | null;
  ZEN: number | null;
  CENTER?: { LAT: number; LON: number; DEG: number };
  CLOSEST_UMAPs: (UmapEntry & { DISTANCE_KM: number })[];
  NOSTR: {
    /** Only in reports for the station's swarm (TRUSTED_IPS): see `SystemReport.get`. */
    EMAIL?: string;
    HEX: string;
    LAT: number;
    LON: number;
    G1PUBNOSTR: string | null;
    ZEN: number | null;
  }[];
  UMAPs: UmapEntry[];
}

/** Longest a report waits for balances the ledger cache does not hold yet; the next report will have them. */
const BALANCE_BUDGET_MS = 1_500;
/** At most this many users are listed (and priced) in one report. */
const MAX_USERS = 500;
/** Balance look-ups in flight at once, so a first report over many users does not flood the indexer. */
const LEDGER_CONCURRENCY = 8;

function umapEntry(cell: Cell, users: number): UmapEntry {
  return { LAT: cell.lat, LON: cell.lon, SECTOR: sectorName(cell), REGION: regionName(cell), USERS: users };
}

/**
 * The station's "system JSON" (docs/api-contract.md §11). Reports are cached per (lat, lon, deg) for 30 s and
 * then served stale while one refresh runs, and balances get a time budget, so a slow indexer never makes `/`
 * slow.
 */
export class SystemReport {
  private readonly cache: LRUCache<string, SystemData, SystemQuery>;

  constructor(
    private readonly deps: {
      config: Pick<Config, 'wallets'>;
      clock: Clock;
      users: UserGridIndex;
      ledger: Pick<Ledger, 'balanceCents'>;
      logger?: Pick<FastifyBaseLogger, 'debug'>;
    },
  ) {
    this.cache = new LRUCache<string, SystemData, SystemQuery>({
      max: 1_000,
      ttl: 30_000,
      allowStale: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, _stale, { context }) => this.build(context),
    });
  }

  /**
   * The cached report holds e-mails; callers outside the swarm get a copy without them, made here on every
   * answer, so nothing the cache hands out to one audience is ever the other's.
   */
  async get(query: SystemQuery, audience: { emails: boolean }): Promise<SystemData> {
    const key = query.center ? `${cellKey(umapOf(query.center))}_${query.deg}` : 'all';
    const data = (await this.cache.fetch(key, { context: query }))!;
    if (audience.emails) return data;
    return { ...data, NOSTR: data.NOSTR.map(({ EMAIL: _email, ...user }) => user) };
  }

  private async build(query: SystemQuery): Promise<SystemData> {
    const window = query.center ? { center: query.center, deg: query.deg } : null;
    const users = (window ? this.deps.users.within(window) : this.deps.users.all()).slice(0, MAX_USERS);
    const cells = new Map<string, { cell: Cell; users: number }>();
    for (const user of users) {
      const cell = umapOf(user.gps!);
      const entry = cells.get(cellKey(cell));
      if (entry) entry.users++;
      else cells.set(cellKey(cell), { cell, users: 1 });
    }
    const addresses = [this.deps.config.wallets.distribution, ...users.map((u) => u.g1pub)];
    const balances = await this.balances(addresses.filter((a): a is string => a !== null));
    const station = balances.get(this.deps.config.wallets.distribution);
    const umaps = [...cells.values()].map(({ cell, users: n }) => umapEntry(cell, n));
    const closest = window
      ? umaps
          .map((umap) => ({
            ...umap,
            DISTANCE_KM: distanceKm(window.center, { lat: umap.LAT, lon: umap.LON }),
          }))
          .sort((a, b) => a.DISTANCE_KM - b.DISTANCE_KM)
          .slice(0, 4)
      : [];
    return {
      DATE: localTimestamp(this.deps.clock.now()),
      G1: station === undefined ? null : centsToG1(station),
      ZEN: station === undefined ? null : balanceZen(station),
      ...(window ? { CENTER: { LAT: window.center.lat, LON: window.center.lon, DEG: window.deg } } : {}),
      CLOSEST_UMAPs: closest,
      NOSTR: users.map((user) => {
        const cents = user.g1pub ? balances.get(user.g1pub) : undefined;
        return {
          EMAIL: user.email,
          HEX: user.hex,
          LAT: user.gps!.lat,
          LON: user.gps!.lon,
          G1PUBNOSTR: user.g1pub,
          ZEN: cents === undefined ? null : balanceZen(cents),
        };
      }),
      UMAPs: umaps,
    };
  }

  /** Balances known within the budget; missing ones are left out (shown as null), never invented. */
  private async balances(addresses: string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const limit = pLimit(LEDGER_CONCURRENCY);
    const lookups = [...new Set(addresses)].map((address) =>
      limit(async () => {
        try {
          found.set(address, await this.deps.ledger.balanceCents(address));
        } catch (error) {
          this.deps.logger?.debug({ err: error, address }, 'balance unavailable for the system report');
        }
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, BALANCE_BUDGET_MS)));
    await Promise.race([Promise.all(lookups), budget]);
    clearTimeout(timer);
    // Look-ups still queued keep running and warm the ledger cache for the next report.
    return new Map(found);
  }
}
