import { createReadStream } from 'node:fs';
import { create, type KuboRPCClient } from 'kubo-rpc-client';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import { isDagPb } from './dag.js';
import { parseIpfsPath, toCidV0 } from './ipfs-path.js';
import { isNotPinned } from './kubo-errors.js';
import { deadline, KuboCalls } from './kubo-calls.js';
import {
  notDagPb,
  NotADirectoryError,
  type AddOptions,
  type AddResult,
  type CatOptions,
  type ContentStore,
  type DirEntry,
  type SignalOptions,
  type StatResult,
  type StoreHealth,
} from './types.js';

/** Sent explicitly so a node whose `Import.*` config differs still produces the embedded store's CIDs. */
const ADD_OPTIONS = { cidVersion: 0, rawLeaves: false, chunker: 'size-262144', trickle: false } as const;

export interface KuboStoreOptions {
  /** Deadline of the short calls (stat, ls, pins, block put, health); streams are bounded by their caller. */
  timeoutMs?: number;
  /** Where an outage of the node is told, once when it starts and once when it ends (outage-log.ts). */
  logger?: Pick<Logger, 'warn' | 'info'>;
  clock?: Clock;
}

/** The production store: a Kubo daemon through its RPC API (`IPFS_API`, usually port 5001). */
export class KuboStore implements ContentStore {
  readonly kind = 'kubo' as const;
  private readonly client: KuboRPCClient;
  private readonly calls: KuboCalls;

  constructor(api: string, options: KuboStoreOptions = {}) {
    this.client = create({ url: api });
    this.calls = new KuboCalls(api, options.timeoutMs ?? 30_000, options.logger, options.clock);
  }

  /**
   * Kubo receives the bytes over its API (its filestore needs `--nocopy` and a path Kubo can read); it stores
   * them at once, so a change's batch (`into`) is not used.
   */
  addFile(path: string, options: AddOptions = {}): Promise<AddResult> {
    return this.add(createReadStream(path), options);
  }

  async add(content: AsyncIterable<Uint8Array>, options: AddOptions = {}): Promise<AddResult> {
    let size = 0;
    const counted = (async function* () {
      for await (const chunk of content) {
        size += chunk.byteLength;
        yield chunk;
      }
    })();
    try {
      const result = await this.client.add(counted, {
        ...ADD_OPTIONS,
        pin: options.pin !== false,
        signal: options.signal,
      });
      this.calls.succeeded();
      // Kubo's `Size` is the cumulative DAG size; the byte count is ours.
      return { cid: toCidV0(result.cid), size, dagSize: result.size };
    } catch (error) {
      throw this.calls.failed(error, 'new file', false);
    }
  }

  async *cat(path: string, options: CatOptions = {}): AsyncIterable<Uint8Array> {
    const ipfsPath = `/ipfs/${parseIpfsPath(path).path}`;
    try {
      yield* this.client.cat(ipfsPath, {
        offset: options.offset,
        length: options.length,
        signal: options.signal,
      });
      this.calls.succeeded();
    } catch (error) {
      throw this.calls.failed(error, path, false);
    }
  }

  async stat(path: string, options: SignalOptions = {}): Promise<StatResult> {
    const parsed = parseIpfsPath(path);
    return this.calls.call(parsed.path, options.signal, async (signal) => {
      const stat = await this.client.files.stat(`/ipfs/${parsed.path}`, { signal });
      const type = stat.type === 'directory' ? 'directory' : 'file';
      return {
        cid: toCidV0(stat.cid),
        type,
        size: type === 'file' ? Number(stat.size) : 0,
        dagSize: Number(stat.cumulativeSize),
      };
    });
  }

  async ls(path: string, options: SignalOptions = {}): Promise<DirEntry[]> {
    // Kubo lists a file's chunks and an empty directory as itself: only a directory's named links count.
    const stat = await this.stat(path, options);
    if (stat.type !== 'directory') throw new NotADirectoryError(path);
    const parsed = parseIpfsPath(path);
    return this.calls.call(parsed.path, options.signal, async (signal) => {
      const entries: DirEntry[] = [];
      for await (const entry of this.client.ls(`/ipfs/${parsed.path}`, { signal })) {
        if (!entry.name) continue;
        const type = entry.type === 'dir' ? 'directory' : 'file';
        entries.push({
          name: entry.name,
          cid: toCidV0(entry.cid),
          type,
          size: type === 'file' ? entry.size : 0,
        });
      }
      return entries;
    });
  }

  /** The daemon hashes the bytes itself: a CID the caller computed is not sent (see ContentStore). */
  async putBlock(bytes: Uint8Array, _computed?: string): Promise<string> {
    if (!isDagPb(bytes)) throw notDagPb();
    return this.calls.call('new block', undefined, async (signal) => {
      const options = { cidCodec: 'dag-pb', mhtype: 'sha2-256', signal };
      return toCidV0(
        await this.client.block.put(bytes, options as Parameters<KuboRPCClient['block']['put']>[1]),
      );
    });
  }

  /** Kubo stored what it was sent; its own collection removes what nothing pins. */
  async release(): Promise<void> {}

  async holds(cid: string): Promise<boolean> {
    return this.stat(cid).then(
      () => true,
      () => false,
    );
  }

  async getBlock(cid: string, options: SignalOptions = {}): Promise<Uint8Array> {
    const parsed = parseIpfsPath(cid);
    return this.calls.call(parsed.path, options.signal, (signal) =>
      this.client.block.get(parsed.cid, { signal }),
    );
  }

  async pin(cid: string): Promise<void> {
    const parsed = parseIpfsPath(cid);
    await this.calls.call(parsed.path, undefined, (signal) =>
      this.client.pin.add(parsed.cid, { recursive: true, signal }),
    );
  }

  async unpin(cid: string): Promise<void> {
    const parsed = parseIpfsPath(cid);
    try {
      await this.calls.call(parsed.path, undefined, (signal) =>
        this.client.pin.rm(parsed.cid, { recursive: true, signal }),
      );
    } catch (error) {
      if (!isNotPinned(error)) throw error;
    }
  }

  async pins(): Promise<string[]> {
    return this.calls.call('pins', undefined, async (signal) => {
      const cids: string[] = [];
      for await (const pin of this.client.pin.ls({ type: 'recursive', signal })) cids.push(toCidV0(pin.cid));
      return cids.sort();
    });
  }

  async health(): Promise<StoreHealth> {
    try {
      // /health must answer quickly even when the node does not.
      const limit = deadline(Math.min(this.calls.timeoutMs, 2_000));
      const version = await this.client.version({ signal: limit.signal });
      return { ok: true, detail: `kubo ${version.version}` };
    } catch (error) {
      return { ok: false, detail: (error as Error).message };
    }
  }

  async close(): Promise<void> {}
}
