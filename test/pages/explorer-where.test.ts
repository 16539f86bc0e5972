import { describe, expect, it } from 'vitest';
import { apiBase, where } from '../../pages/explorer/where.js';
import { safeFiles } from '../../pages/src/drive/entries.js';

const CID = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';
const NEXT = 'QmZ6kQsjobaT6EZn3MbcApNeHBzAAFdUkFHBsDKEkmbu1J';

/** The explorer finds its folder, its root and the next root's address from its own URL, on any gateway. */
describe('explorer location', () => {
  it.each([
    [`http://127.0.0.1:8080/ipfs/${CID}/_index.html`, `http://127.0.0.1:8080/ipfs/${CID}/`],
    [`http://127.0.0.1:8080/ipfs/${CID}/`, `http://127.0.0.1:8080/ipfs/${CID}/`],
    [`http://127.0.0.1:8080/ipfs/${CID}`, `http://127.0.0.1:8080/ipfs/${CID}/`],
    [`https://gw.example/prefix/ipfs/${CID}/_index.html?x=1#y`, `https://gw.example/prefix/ipfs/${CID}/`],
  ])('a path gateway: %s', (href, base) => {
    const here = where(href);
    expect(here.base.href).toBe(base);
    expect(here.root).toBe(CID);
    expect(here.explorerOf(NEXT)).toBe(
      `${new URL(base).origin}${new URL(base).pathname.split('/ipfs/')[0]}/ipfs/${NEXT}/_index.html`,
    );
  });

  it('a subdomain gateway, a copy in a sub-folder, and a page outside any /ipfs/ path', () => {
    const sub = where('https://bafybeiabc.ipfs.dweb.link/_index.html');
    expect([sub.base.href, sub.root, sub.explorerOf(NEXT)]).toEqual([
      'https://bafybeiabc.ipfs.dweb.link/',
      'bafybeiabc',
      `https://dweb.link/ipfs/${NEXT}/_index.html`,
    ]);
    expect(where(`http://gw/ipfs/${CID}/Documents/_index.html`).base.href).toBe(
      `http://gw/ipfs/${CID}/Documents/`,
    );
    const local = where('file:///home/me/drive/_index.html');
    expect([local.base.href, local.root, local.explorerOf(NEXT)]).toEqual([
      'file:///home/me/drive/',
      null,
      null,
    ]);
  });

  it('reaches a loopback API by the host the page came from, and refuses other schemes', () => {
    const lan = new URL('http://192.168.1.20:8080/ipfs/x/_index.html');
    expect(apiBase('http://127.0.0.1:54321', lan)).toBe('http://192.168.1.20:54321');
    expect(apiBase('http://127.0.0.1:54321/', new URL('http://127.0.0.1:8080/'))).toBe(
      'http://127.0.0.1:54321',
    );
    expect(apiBase('https://station.example/api/', lan)).toBe('https://station.example/api');
    expect(apiBase('javascript:alert(1)', lan)).toBeNull();
    expect(apiBase('not a url', lan)).toBeNull();
  });
});

describe('explorer manifest entries', () => {
  const file = {
    path: 'Images/a.png',
    name: 'a.png',
    category: 'Images',
    size: 3,
    added_at: '2026-01-01T00:00:00.000',
    ipfs_link: `${CID}/a.png`,
  };

  it('keeps what the station writes and drops anything else a crafted manifest.json could hold', () => {
    expect(safeFiles({ files: [file] })).toEqual([file]);
    for (const bad of [
      { ...file, category: 'Apps', path: 'Apps/a.png' },
      { ...file, name: '..', path: 'Images/..' },
      { ...file, name: 'x/y.png', path: 'Images/x/y.png' },
      { ...file, path: '../../etc/passwd' },
      { ...file, size: '3' },
      { ...file, added_at: 1 },
      { ...file, added_at: 1 },
      { ...file, ipfs_link: 'javascript:alert(1)' },
      { ...file, ipfs_link: `${CID}/a/b` },
      null,
      'Images/a.png',
    ])
      expect(safeFiles({ files: [bad] }), JSON.stringify(bad)).toEqual([]);
    expect(safeFiles(null)).toEqual([]);
    expect(safeFiles({ files: 'nope' })).toEqual([]);
  });
});
