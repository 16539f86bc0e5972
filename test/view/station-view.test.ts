import ngeohash from 'ngeohash';
import { describe, expect, it } from 'vitest';
import { GeoIndex } from '../../src/view/geo-index.js';
import { notePosition } from '../../src/view/geo.js';
import { StationView } from '../../src/view/station-view.js';
import { newKey, signEvent } from '../helpers/nostr.js';

const WALLET = 'g1N8XBxbXspKQPEUsnmebzBswrf8bEbT7yfo9aWHcZgG9duBQ';

describe('station view: replaceable kinds keep the newest event', () => {
  const author = newKey();
  const profile = (name: string, created_at: number) =>
    signEvent(author, { kind: 0, content: JSON.stringify({ name }), created_at });

  it('replaces an older profile and ignores an older one arriving late', () => {
    const view = new StationView();
    expect(view.putProfile(profile('v1', 1_000))).toBe('applied');
    expect(view.putProfile(profile('v2', 2_000))).toBe('applied');
    expect(view.putProfile(profile('v0', 500))).toBe('stale');
    expect(view.profile(author.hex)?.name).toBe('v2');
    expect(view.counts.profiles).toMatchObject({ applied: 2, stale: 1 });
  });

  it('breaks a created_at tie by the lowest id (NIP-01)', () => {
    const view = new StationView();
    const [low, high] = [profile('a', 3_000), profile('b', 3_000)].sort((x, y) => x.id.localeCompare(y.id));
    view.putProfile(high!);
    view.putProfile(low!);
    view.putProfile(high!);
    expect(view.profile(author.hex)?.event_id).toBe(low!.id);
  });

  it('drops and counts a malformed profile without losing the previous one', () => {
    const view = new StationView();
    view.putProfile(profile('good', 1_000));
    for (const content of ['not json', '[1,2]', 'null', '"text"'])
      expect(view.putProfile(signEvent(author, { kind: 0, content, created_at: 2_000 }))).toBe('malformed');
    expect(view.profile(author.hex)?.name).toBe('good');
    expect(view.counts.profiles.malformed).toBe(4);
  });

  it('reads the wallet from g1v2, g1pub or an i tag, and bounds long fields', () => {
    const view = new StationView();
    const a = newKey();
    const b = newKey();
    view.putProfile(
      signEvent(a, { kind: 0, content: JSON.stringify({ g1v2: WALLET, about: 'x'.repeat(10_000) }) }),
    );
    view.putProfile(signEvent(b, { kind: 0, content: '{}', tags: [['i', `g1v2:${WALLET}`, 'proof']] }));
    expect([view.walletOf(a.hex), view.walletOf(b.hex)]).toEqual([WALLET, WALLET]);
    expect(view.profile(a.hex)?.about).toHaveLength(2_000);
  });

  it('keeps follows, playlists and videos', () => {
    const view = new StationView();
    const followed = newKey().hex;
    view.putFollows(
      signEvent(author, {
        kind: 3,
        tags: [
          ['p', followed],
          ['p', 'bad'],
          ['p', followed],
        ],
        created_at: 10,
      }),
    );
    view.putFollows(signEvent(author, { kind: 3, tags: [], created_at: 5 }));
    expect(view.followsOf(author.hex)?.follows).toEqual([followed]);

    const e = 'e'.repeat(64);
    view.putPlaylist(
      signEvent(author, {
        kind: 10001,
        tags: [
          ['title', 'Mix'],
          ['e', e, 'wss://r'],
          ['r', 'https://x.org/a.mp3'],
          ['e', 'short'],
        ],
      }),
    );
    expect(view.playlistOf(author.hex)).toMatchObject({
      title: 'Mix',
      items: [
        { type: 'e', value: e, relay: 'wss://r' },
        { type: 'r', value: 'https://x.org/a.mp3', relay: null },
      ],
    });

    const video = signEvent(author, {
      kind: 21,
      content: 'A walk',
      created_at: 100,
      tags: [
        ['title', 'Walk'],
        ['imeta', 'url https://v.org/w.mp4', 'm video/mp4', 'image https://v.org/w.jpg', 'duration 12.5'],
        ['t', 'nature'],
      ],
    });
    const short = signEvent(author, { kind: 22, created_at: 200, tags: [['url', 'https://v.org/s.mp4']] });
    expect([view.putVideo(video), view.putVideo(short), view.putVideo(video)]).toEqual([
      'applied',
      'applied',
      'duplicate',
    ]);
    expect(view.putVideo(signEvent(author, { kind: 21, tags: [['url', 'javascript:alert(1)']] }))).toBe(
      'malformed',
    );
    expect(view.videosOf(author.hex).map((v) => [v.kind, v.url, v.title, v.duration, v.thumbnail])).toEqual([
      [22, 'https://v.org/s.mp4', null, null, null],
      [21, 'https://v.org/w.mp4', 'Walk', 12.5, 'https://v.org/w.jpg'],
    ]);
  });
});

describe('geo-tagged notes', () => {
  const key = newKey();
  const note = (tags: string[][], created_at = 1_000) =>
    signEvent(key, { kind: 1, content: 'here', tags, created_at });

  it('reads latitude/longitude tags first, else the most precise geohash; coarse geohashes are not placed', () => {
    expect(
      notePosition(
        note([
          ['latitude', '43.6047'],
          ['longitude', '1.4442'],
        ]),
      ),
    ).toEqual({ lat: 43.6047, lon: 1.4442 });
    const paris = notePosition(
      note([
        ['g', 'u0'],
        ['g', ngeohash.encode(48.8566, 2.3522, 9)],
      ]),
    )!;
    expect([paris.lat, paris.lon].map((v) => v.toFixed(3))).toEqual(['48.857', '2.352']);
    expect(notePosition(note([['g', 'u09tv']]))).toBeNull();
    expect(
      notePosition(
        note([
          ['latitude', '95'],
          ['longitude', '1'],
        ]),
      ),
    ).toBeNull();
  });

  it('files notes by UMAP cell, counts unreadable coordinates as malformed and plain notes as ignored', () => {
    const view = new StationView();
    expect(
      view.putNote(
        note([
          ['latitude', '43.6047'],
          ['longitude', '1.4442'],
        ]),
      ),
    ).toBe('applied');
    expect(
      view.putNote(
        note([
          ['latitude', 'north'],
          ['longitude', '1.44'],
        ]),
      ),
    ).toBe('malformed');
    expect(view.putNote(note([]))).toBe('ignored');
    const [found] = view.geoMessages({ lat: 43.6, lon: 1.44 }, 0.01, 10);
    expect(found).toMatchObject({ lat: 43.6047, lon: 1.4442, umap: { lat: 43.6, lon: 1.44 } });
    expect(view.geoMessages({ lat: 43.61, lon: 1.44 }, 0.01, 10)).toEqual([]);
    expect(view.geoMessages({ lat: 43.61, lon: 1.44 }, 0.03, 10)).toHaveLength(1);
  });

  it('stays within its bounds: total messages and per cell', () => {
    // The index reads only id, author, time and text: one signed note, copied under many ids, will do.
    const signed = note([]);
    const copy = (i: number) => ({ ...signed, id: i.toString(16).padStart(64, '0'), created_at: i });
    const index = new GeoIndex({ maxMessages: 50, perCell: 10 });
    for (let i = 0; i < 500; i++) index.add(copy(i), { lat: (i % 20) / 100, lon: 0 });
    expect(index.size).toBe(50);
    const cells = Array.from(
      { length: 20 },
      (_, i) => index.near({ lat: i / 100, lon: 0 }, 0.01, 100).length,
    );
    expect(Math.max(...cells)).toBeLessThanOrEqual(10);
    expect(cells.reduce((sum, n) => sum + n, 0)).toBe(50);
    // The newest survive.
    expect(index.near({ lat: 0.19, lon: 0 }, 0.01, 1)[0]?.created_at).toBe(499);

    // One busy cell: the per-cell bound keeps its newest notes, in whatever order they arrive (a backfill).
    const busy = new GeoIndex({ maxMessages: 1_000, perCell: 10 });
    for (let i = 0; i < 30; i++) busy.add(copy((i * 7) % 30), { lat: 0, lon: 0 });
    expect(busy.size).toBe(10);
    expect(busy.near({ lat: 0, lon: 0 }, 0.01, 100).map((m) => m.created_at)).toEqual([
      29, 28, 27, 26, 25, 24, 23, 22, 21, 20,
    ]);
  });
});
