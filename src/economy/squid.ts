import { DependencyError } from '../errors.js';
import type { GraphqlPool } from './graphql.js';
import type { IndexerHealth, LedgerTransfer } from './ledger.js';

/** The queries of docs/api-contract.md §10, PostGraphile style, as the Duniter v2s squid answers them. */
export const BALANCE_QUERY = `query Balance($a: String!) {
  accounts(condition: {id: $a}) { nodes { id totalBalance } }
}`;

export const INCOMING_QUERY = `query Incoming($a: String!, $n: Int!, $cursor: Cursor) {
  transfers(condition: {toId: $a}, orderBy: BLOCK_NUMBER_DESC, first: $n, after: $cursor) {
    pageInfo { hasNextPage endCursor }
    nodes { fromId toId amount timestamp blockNumber comment { remark } }
  }
}`;

interface AccountsData {
  accounts?: { nodes?: { id?: unknown; totalBalance?: unknown }[] };
}

interface RawTransfer {
  fromId?: unknown;
  toId?: unknown;
  amount?: unknown;
  timestamp?: unknown;
  blockNumber?: unknown;
  comment?: { remark?: unknown } | null;
}

interface TransfersData {
  transfers?: {
    pageInfo?: { hasNextPage?: unknown; endCursor?: unknown };
    nodes?: RawTransfer[];
  };
}

export interface SquidLedgerOptions {
  /** Transfers per page. */
  pageSize?: number;
  /** Safety bound: a history longer than pageSize × maxPages is refused rather than read forever. */
  maxPages?: number;
}

export interface ReadOptions {
  /** Stop paging once a page reaches blocks below this one (an incremental refresh). */
  stopBelowBlock?: number;
  signal?: AbortSignal;
}

function malformed(what: string): DependencyError {
  return new DependencyError('indexer', 'failed', {
    en: `The Ğ1 indexer sent a malformed answer (${what}).`,
    fr: `L’indexeur Ğ1 a envoyé une réponse mal formée (${what}).`,
  });
}

/** Big integers arrive as JSON strings (PostGraphile BigInt) or numbers; both must be whole and safe. */
function whole(value: unknown, what: string): number {
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw malformed(what);
  return n;
}

function toTransfer(raw: RawTransfer): LedgerTransfer {
  const timestampMs = typeof raw.timestamp === 'string' ? Date.parse(raw.timestamp) : NaN;
  if (typeof raw.fromId !== 'string' || typeof raw.toId !== 'string' || Number.isNaN(timestampMs)) {
    throw malformed('transfer');
  }
  const remark = raw.comment?.remark;
  return {
    fromId: raw.fromId,
    toId: raw.toId,
    amountCents: whole(raw.amount, 'amount'),
    timestampMs,
    blockNumber: whole(raw.blockNumber, 'blockNumber'),
    comment: typeof remark === 'string' ? remark : null,
  };
}

/** Ledger reads straight from the squid indexer, every call a round-trip; wrap it in `CachedLedger`. */
export class SquidLedger {
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(
    private readonly pool: Pick<GraphqlPool, 'query'> & Partial<Pick<GraphqlPool, 'health'>>,
    options: SquidLedgerOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 100;
    this.maxPages = options.maxPages ?? 1_000;
  }

  indexerHealth(): IndexerHealth | null {
    return this.pool.health?.() ?? null;
  }

  async balanceCents(address: string, signal?: AbortSignal): Promise<number> {
    const data = await this.pool.query<AccountsData>(BALANCE_QUERY, { a: address }, signal);
    const nodes = data.accounts?.nodes;
    if (!Array.isArray(nodes)) throw malformed('accounts');
    const account = nodes.find((node) => node.id === address);
    return account ? whole(account.totalBalance, 'totalBalance') : 0;
  }

  incomingTransfers(address: string): Promise<LedgerTransfer[]> {
    return this.readIncoming(address);
  }

  /** Follows the cursor through every page, newest block first. */
  async readIncoming(address: string, options: ReadOptions = {}): Promise<LedgerTransfer[]> {
    const out: LedgerTransfer[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < this.maxPages; page++) {
      const data: TransfersData = await this.pool.query<TransfersData>(
        INCOMING_QUERY,
        { a: address, n: this.pageSize, cursor },
        options.signal,
      );
      const nodes = data.transfers?.nodes;
      const info = data.transfers?.pageInfo;
      if (!Array.isArray(nodes) || !info) throw malformed('transfers');
      for (const node of nodes) out.push(toTransfer(node));
      const last = out.at(-1);
      if (options.stopBelowBlock !== undefined && last && last.blockNumber < options.stopBelowBlock) {
        return out;
      }
      if (info.hasNextPage !== true) return out;
      // A cursor that does not move would loop forever on a confused server.
      if (typeof info.endCursor !== 'string' || info.endCursor === cursor) throw malformed('pageInfo');
      cursor = info.endCursor;
    }
    const most = this.maxPages * this.pageSize;
    throw new DependencyError('indexer', 'failed', {
      en: `The transfer history of ${address} is longer than ${most} transfers.`,
      fr: `L’historique des virements de ${address} dépasse ${most} virements.`,
    });
  }
}
