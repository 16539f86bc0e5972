import { randomBytes } from 'node:crypto';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { DirectoryTooLargeError, encodeDirectory, type DirectoryLink } from '../../../src/drive/store/dag.js';
import { encodeEditedDirectory } from '../../../src/drive/store/folder-edits.js';

async function link(name: string): Promise<DirectoryLink> {
  const cid = CID.createV0(await sha256.digest(randomBytes(16))).toString();
  return { name, cid, dagSize: randomBytes(2).readUInt16BE() };
}

/** Names whose UTF-16 order differs from their UTF-8 byte order, and numbered ones as the drive makes them. */
const NAMES = ['a.jpg', 'A.jpg', 'é.txt', '～.txt', '😀.txt', 'b (1).jpg', 'b (10).jpg', 'b (2).jpg', 'z'];

describe('folders edited from their previous version', () => {
  it('are byte for byte the folder encoded from all its links, through any adds and removals', async () => {
    let links: DirectoryLink[] = [];
    let previous = await encodeEditedDirectory(() => links);
    let edits = 0;
    for (let step = 0; step < 300; step++) {
      const add = await Promise.all(
        Array.from({ length: step % 3 }, async (_, i) => link(`${NAMES[(step + i) % NAMES.length]}-${step}`)),
      );
      // Every fourth step also removes three links: the first, one in the middle, and the last (a name added
      // just before); every fifth, two neighbours.
      const middle = links[links.length >> 1]?.name;
      const remove =
        step % 4 === 3 && links.length > 3
          ? [links[0]!.name, middle!, links[links.length - 1]!.name]
          : step % 5 === 4 && links.length > 3
            ? [links[1]!.name, links[2]!.name]
            : [];
      links = [...links.filter((l) => !remove.includes(l.name)), ...add];
      let askedForAll = false;
      const node = await encodeEditedDirectory(() => ((askedForAll = true), links), {
        previous: previous.cid,
        add,
        remove,
      });
      if (!askedForAll) edits++;
      const whole = await encodeDirectory(links);
      expect(node.cid).toBe(whole.cid);
      expect(Buffer.from(node.bytes).equals(Buffer.from(whole.bytes))).toBe(true);
      expect(node.dagSize).toBe(whole.dagSize);
      previous = node;
    }
    // After the first version, every one came from its predecessor without looking at all the links.
    expect(edits).toBe(300);
  });

  it('keeps the link already there for a name added again, as the drive list after a change does', async () => {
    const first = await link('same.jpg');
    const base = await encodeEditedDirectory(() => [first]);
    const again = await encodeEditedDirectory(() => [first], {
      previous: base.cid,
      add: [await link('same.jpg')],
      remove: [],
    });
    expect(again.cid).toBe(base.cid);
  });

  it('starts from all the links when the previous version is unknown, and refuses past the threshold', async () => {
    const links = [await link('x.pdf'), await link('a.pdf')];
    const unknown = CID.createV0(await sha256.digest(randomBytes(8))).toString();
    const node = await encodeEditedDirectory(() => links, { previous: unknown, add: [], remove: [] });
    expect(node.cid).toBe((await encodeDirectory(links)).cid);
    const many = await Promise.all(
      Array.from({ length: 4_000 }, (_, i) => link(`photo-${i}-${'x'.repeat(40)}.jpg`)),
    );
    await expect(encodeEditedDirectory(() => many)).rejects.toBeInstanceOf(DirectoryTooLargeError);
  });

  it('drops a name added and removed in one edit, and keeps the first of a name added twice', async () => {
    const links = await Promise.all(['b.jpg', 'd.jpg', 'f.jpg'].map(link));
    const base = await encodeEditedDirectory(() => links);
    const [first, second, gone] = [await link('c.jpg'), await link('c.jpg'), await link('e.jpg')];
    const node = await encodeEditedDirectory(() => [], {
      previous: base.cid,
      add: [first, second, gone],
      remove: ['e.jpg', 'd.jpg', 'missing.jpg'],
    });
    const whole = await encodeDirectory([links[0]!, first, links[2]!]);
    expect(node.cid).toBe(whole.cid);
    expect(node.dagSize).toBe(whole.dagSize);
  });

  it('keeps counting toward the sharding threshold through edits', async () => {
    const named = (i: number) => link(`photo-${String(i).padStart(5, '0')}-${'x'.repeat(40)}.jpg`);
    // 52 bytes of name and 34 of CID each: 2,900 links stay under 256 KiB, 3,100 do not.
    const links = await Promise.all(Array.from({ length: 2_900 }, (_, i) => named(i)));
    const base = await encodeEditedDirectory(() => links);
    const more = await Promise.all(Array.from({ length: 200 }, (_, i) => named(5_000 + i)));
    await expect(
      encodeEditedDirectory(() => [...links, ...more], { previous: base.cid, add: more, remove: [] }),
    ).rejects.toBeInstanceOf(DirectoryTooLargeError);
    const swapped = await encodeEditedDirectory(() => [], {
      previous: base.cid,
      add: more,
      remove: links.slice(0, 200).map((l) => l.name),
    });
    expect(swapped.cid).toBe((await encodeDirectory([...links.slice(200), ...more])).cid);
  });
});
