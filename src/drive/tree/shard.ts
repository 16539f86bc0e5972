import * as dagPb from '@ipld/dag-pb';
import { murmur3128 } from '@multiformats/murmur3';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';
import { cidText, parsedCid } from '../store/cid-text.js';
import { asCid, linksOf, type DirectoryLink } from '../store/dag.js';
import type { NodeStore } from './nodes.js';
import type { NodeRef } from '../db/records.js';

/**
 * UnixFS HAMT-sharded directories (the layout Kubo and ipfs-unixfs-importer write, read by every IPFS
 * implementation), edited in place of the previous version: adding or removing a name re-encodes only the
 * nodes on its path, whatever the folder holds. The trie is canonical, so a folder's CID depends only on
 * its names and links, not on the order changes came in:
 * - names are hashed with murmur3-x64-64 (the first 8 bytes of murmur3-x64-128), and each level takes the
 *   next log2(fanout) bits of that hash, most significant first;
 * - a slot holds a name alone in it as a link `<slot><name>`, and two or more as a sub-shard `<slot>`
 *   (slot in upper-case hex, padded to the width of fanout − 1); a sub-shard left with one name is folded
 *   back into its parent's slot;
 * - a node's Data is a UnixFS `hamt-sharded-directory` with its fanout, hash type 0x22 and the slot bitfield
 *   (big-endian, leading zero bytes left out, as go-bitfield writes it).
 * test/drive/tree/shard.test.ts checks nodes against ipfs-unixfs-importer's for the same names.
 */

const MURMUR3_X64_64 = 0x22n;

/** CIDs stay decoded here: a shard's nodes are read and written at every change, never shown as text. */
interface Entry {
  name: string;
  cid: CID;
  dagSize: number;
}

interface Child {
  cid: CID | null;
  dagSize: number;
  /** Loaded when a change goes through it; null until then. */
  node: Shard | null;
}

interface Encoded {
  cid: CID;
  dagSize: number;
}

interface Shard {
  slots: Map<number, Entry | Child>;
  /** Encoded since its last change: re-encoding an unchanged node is skipped. */
  ref: Encoded | null;
}

const isChild = (slot: Entry | Child): slot is Child => 'node' in slot;

const decoded = (link: DirectoryLink): Entry => ({
  name: link.name,
  cid: asCid(link.cid),
  dagSize: link.dagSize,
});
const refOf = (encoded: Encoded): NodeRef => ({ cid: cidText(encoded.cid), dagSize: encoded.dagSize });

/**
 * Go keeps the first 8 bytes of murmur3-x64-128 reversed and reads them from the last byte back: the same
 * bits as reading the first 8 bytes forwards, which is what `slotAt` does.
 */
async function hashOf(name: string): Promise<Uint8Array> {
  return (await murmur3128.encode(Buffer.from(name, 'utf8'))).subarray(0, 8);
}

/** The slot of a name at `depth`: `bits` bits of its hash from bit `depth × bits` on. */
function slotAt(hash: Uint8Array, depth: number, bits: number): number {
  const start = depth * bits;
  if (start + bits > hash.length * 8) throw new Error('shard too deep: 64 bits of hash exhausted');
  let value = 0;
  for (let bit = start; bit < start + bits; bit++)
    value = (value << 1) | ((hash[bit >> 3]! >> (7 - (bit & 7))) & 1);
  return value;
}

export class ShardEditor {
  private readonly bits: number;
  private readonly width: number;

  constructor(
    private readonly store: NodeStore,
    readonly fanout: number,
  ) {
    this.bits = Math.log2(fanout);
    if (!Number.isInteger(this.bits) || fanout < 8) throw new RangeError('fanout: a power of 2, at least 8');
    this.width = (fanout - 1).toString(16).length;
  }

  /** The fanout of a stored shard node, or null when the node is not a shard. */
  static fanoutOf(block: Uint8Array | dagPb.PBNode): number | null {
    const data = (block instanceof Uint8Array ? dagPb.decode(block) : block).Data;
    if (!data) return null;
    const unixfs = UnixFS.unmarshal(data);
    return unixfs.type === 'hamt-sharded-directory' ? Number(unixfs.fanout ?? 0n) : null;
  }

  /** The shard holding `entries` (names unique), built whole. */
  async build(entries: readonly DirectoryLink[]): Promise<NodeRef> {
    const root: Shard = { slots: new Map(), ref: null };
    for (const entry of entries) await this.insert(root, decoded(entry), await hashOf(entry.name), 0);
    return refOf(await this.encode(root));
  }

  /** The shard `previous` becomes with `remove` taken out, then `add` put in (a name there is replaced). */
  async edit(previous: string, add: readonly DirectoryLink[], remove: readonly string[]): Promise<NodeRef> {
    const root = await this.load(parsedCid(previous));
    for (const name of remove) await this.delete(root, name, await hashOf(name), 0);
    for (const entry of add) await this.insert(root, decoded(entry), await hashOf(entry.name), 0);
    return refOf(await this.encode(root));
  }

  /** Every entry of a stored shard (any fanout), in slot order. */
  async entries(cid: string | CID): Promise<DirectoryLink[]> {
    const bytes = await this.store.get(typeof cid === 'string' ? cid : cidText(cid));
    const fanout = ShardEditor.fanoutOf(bytes) ?? this.fanout;
    const width = (fanout - 1).toString(16).length;
    const out: DirectoryLink[] = [];
    for (const link of linksOf(bytes)) {
      if (link.name.length === width) out.push(...(await this.entries(link.cid)));
      else out.push({ name: link.name.slice(width), cid: link.cid, dagSize: link.dagSize });
    }
    return out;
  }

  private async load(cid: CID): Promise<Shard> {
    const bytes = await this.store.get(cidText(cid));
    const node = dagPb.decode(bytes);
    const slots = new Map<number, Entry | Child>();
    let dagSize = bytes.length;
    for (const link of node.Links) {
      const name = link.Name ?? '';
      const slot = parseInt(name.slice(0, this.width), 16);
      const size = link.Tsize ?? 0;
      dagSize += size;
      if (name.length === this.width) slots.set(slot, { cid: link.Hash, dagSize: size, node: null });
      else slots.set(slot, { name: name.slice(this.width), cid: link.Hash, dagSize: size });
    }
    return { slots, ref: { cid, dagSize } };
  }

  private async childNode(child: Child): Promise<Shard> {
    child.node ??= await this.load(child.cid!);
    return child.node;
  }

  private async insert(shard: Shard, entry: Entry, hash: Uint8Array, depth: number): Promise<void> {
    shard.ref = null;
    const slot = slotAt(hash, depth, this.bits);
    const there = shard.slots.get(slot);
    if (!there || (!isChild(there) && there.name === entry.name)) {
      shard.slots.set(slot, { name: entry.name, cid: entry.cid, dagSize: entry.dagSize });
      return;
    }
    if (isChild(there)) return this.insert(await this.childNode(there), entry, hash, depth + 1);
    // Two names in one slot: a sub-shard holds both, one level down (further while they still collide).
    const node: Shard = { slots: new Map(), ref: null };
    await this.insert(node, there, await hashOf(there.name), depth + 1);
    await this.insert(node, entry, hash, depth + 1);
    shard.slots.set(slot, { cid: null, dagSize: 0, node });
  }

  private async delete(shard: Shard, name: string, hash: Uint8Array, depth: number): Promise<void> {
    const slot = slotAt(hash, depth, this.bits);
    const there = shard.slots.get(slot);
    if (!there) return;
    if (!isChild(there)) {
      if (there.name !== name) return;
      shard.slots.delete(slot);
      shard.ref = null;
      return;
    }
    const node = await this.childNode(there);
    await this.delete(node, name, hash, depth + 1);
    if (node.ref) return; // the name was not there
    shard.ref = null;
    const only = node.slots.size === 1 ? [...node.slots.values()][0]! : null;
    if (node.slots.size === 0) shard.slots.delete(slot);
    else if (only && !isChild(only)) shard.slots.set(slot, only); // one name left: folded back
  }

  private async encode(shard: Shard): Promise<Encoded> {
    if (shard.ref) return shard.ref;
    const links: dagPb.PBLink[] = [];
    const slots = [...shard.slots.keys()].sort((a, b) => a - b);
    const bitfield = new Uint8Array(this.fanout / 8);
    for (const slot of slots) {
      const value = shard.slots.get(slot)!;
      bitfield[bitfield.length - 1 - (slot >> 3)]! |= 1 << (slot & 7);
      const prefix = slot.toString(16).toUpperCase().padStart(this.width, '0');
      if (isChild(value)) {
        const ref = value.node ? await this.encode(value.node) : (value as Encoded);
        value.cid = ref.cid;
        value.dagSize = ref.dagSize;
        links.push({ Name: prefix, Hash: ref.cid, Tsize: ref.dagSize });
      } else links.push({ Name: prefix + value.name, Hash: value.cid, Tsize: value.dagSize });
    }
    // go-bitfield's Bytes(): big-endian, leading zero bytes left out.
    const first = bitfield.findIndex((byte) => byte !== 0);
    const data = new UnixFS({
      type: 'hamt-sharded-directory',
      data: bitfield.subarray(first === -1 ? bitfield.length : first),
      fanout: BigInt(this.fanout),
      hashType: MURMUR3_X64_64,
    });
    const bytes = dagPb.encode({ Data: data.marshal(), Links: links });
    const cid = parsedCid(await this.store.put(bytes));
    shard.ref = { cid, dagSize: links.reduce((sum, l) => sum + (l.Tsize ?? 0), bytes.length) };
    return shard.ref;
  }
}
