import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import { TooLarge } from '../../errors.js';
import type { DagScope } from './trustless-request.js';

export interface Block {
  cid: CID;
  bytes: Uint8Array;
}

/** The most a CAR answer walks: more is cut (the client sees a truncated CAR, never a complete-looking one). */
export interface CarLimits {
  maxBlocks: number;
  maxBytes: number;
}

export const DEFAULT_CAR_LIMITS: CarLimits = { maxBlocks: 200_000, maxBytes: 8 * 1024 ** 3 };

/** The inclusive byte range of a file entity still wanted below a node, relative to that node. */
type Range = [number, number];

interface Pending {
  cid: CID;
  scope: DagScope;
  range: Range | null;
}

const IDENTITY = 0x00;

export const dagTooLarge = (limits: CarLimits) =>
  new TooLarge('DAG_TOO_LARGE', {
    en: `The DAG asked for is over this gateway's limit (${limits.maxBlocks} blocks, ${limits.maxBytes} bytes).`,
    fr: `Le DAG demandé dépasse la limite de cette passerelle (${limits.maxBlocks} blocs, ${limits.maxBytes} octets).`,
  });

/** A hamt shard's links to its sub-shards have names of exactly the width of a bucket index. */
function shardWidth(unixfs: UnixFS): number {
  return (Number(unixfs.fanout ?? 256n) - 1).toString(16).length;
}

/** The links of one node to walk under `scope` (and, for a file, the part of `range` each child holds). */
export function childrenOf(block: Block, scope: DagScope, range: Range | null): Pending[] {
  if (scope === 'block' || block.cid.code !== dagPb.code) return [];
  const node = dagPb.decode(block.bytes);
  let unixfs: UnixFS | null = null;
  try {
    unixfs = node.Data ? UnixFS.unmarshal(node.Data) : null;
  } catch {
    unixfs = null;
  }
  const all = (r: Range | null = null) => node.Links.map((l) => ({ cid: l.Hash, scope, range: r }));
  if (scope === 'all') return all();
  // scope entity: a file whole (or its range), a directory's own node(s), nothing more of other data.
  if (!unixfs) return [];
  if (unixfs.type === 'directory') return [];
  if (unixfs.type === 'hamt-sharded-directory') {
    const width = shardWidth(unixfs);
    return node.Links.filter((l) => (l.Name ?? '').length === width).map((l) => ({
      cid: l.Hash,
      scope,
      range: null,
    }));
  }
  if (unixfs.type !== 'file' && unixfs.type !== 'raw') return [];
  if (!range) return all();
  const picked: Pending[] = [];
  let start = unixfs.data?.length ?? 0;
  node.Links.forEach((link, i) => {
    const size = Number(unixfs.blockSizes[i] ?? 0n);
    const end = start + size - 1;
    if (size > 0 && end >= range[0] && start <= range[1])
      picked.push({
        cid: link.Hash,
        scope,
        range: [Math.max(0, range[0] - start), Math.min(size - 1, range[1] - start)],
      });
    start += size;
  });
  return picked;
}

/** `entity-bytes` against a file of `size` bytes: the inclusive range, or null when nothing of it is left. */
export function resolveEntityBytes(spec: { from: number; to: number | null }, size: number): Range | null {
  const from = Math.max(0, spec.from < 0 ? size + spec.from : spec.from);
  const to = Math.min(size - 1, spec.to === null ? size - 1 : spec.to < 0 ? size + spec.to : spec.to);
  return from <= to ? [from, to] : null;
}

/**
 * The blocks below `terminal` (emitted already, with the path's blocks) in depth-first order, read one at a
 * time: memory holds the pending links and, without duplicates, the CIDs sent. Identity CIDs are never sent.
 */
export async function* walkBelow(
  terminal: Block,
  options: {
    read: (cid: CID) => Promise<Uint8Array>;
    scope: DagScope;
    range: Range | null;
    dups: boolean;
    sent: Set<string>;
    limits: CarLimits;
    signal: AbortSignal;
  },
): AsyncGenerator<Block> {
  const { read, dups, sent, limits, signal } = options;
  let blocks = sent.size;
  let bytes = 0;
  const stack = childrenOf(terminal, options.scope, options.range).reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    signal.throwIfAborted();
    if (next.cid.multihash.code === IDENTITY) continue;
    const key = next.cid.toString();
    if (!dups && sent.has(key)) continue;
    const block = { cid: next.cid, bytes: await read(next.cid) };
    blocks += 1;
    bytes += block.bytes.length;
    if (blocks > limits.maxBlocks || bytes > limits.maxBytes) throw dagTooLarge(limits);
    if (!dups) sent.add(key);
    yield block;
    const children = childrenOf(block, next.scope, next.range);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}
