import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { verifyEvent, type NostrEvent } from 'nostr-tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddedRelay } from '../../src/relay/embedded-relay.js';
import { newKey, signEvent } from '../helpers/nostr.js';
import { publish, startTestRelay } from '../helpers/relay.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

describe('station relay export', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let relay: EmbeddedRelay | null = null;
  const published: NostrEvent[] = [];
  const dataRoot = () => join(dir.path, 'game');

  const station = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'cli', 'main.ts'), 'relay', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: dir.path, DATA_ROOT: dataRoot() },
      maxBuffer: 64 * 1024 * 1024,
    });

  const parse = (jsonl: string) =>
    jsonl
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as NostrEvent);

  beforeAll(async () => {
    dir = await tempDir();
    relay = await startTestRelay({ storePath: join(dataRoot(), 'relay', 'store') });
    const [alice, bob] = [newKey(), newKey()];
    const base = Math.floor(Date.now() / 1000) - 3_600;
    const templates = [
      { key: alice, kind: 0, created_at: base, content: '{"name":"alice"}' },
      { key: alice, kind: 1, created_at: base + 30, content: 'hello' },
      { key: bob, kind: 1, created_at: base + 10, content: 'first', tags: [['t', 'uplanet']] },
      { key: bob, kind: 7, created_at: base + 20, content: '+' },
      { key: alice, kind: 7, created_at: base + 40, content: '🤙' },
      { key: bob, kind: 30023, created_at: base + 50, content: 'article', tags: [['d', 'a']] },
      { key: alice, kind: 1, created_at: base + 30, content: 'same second' },
    ];
    for (const { key, ...template } of templates) {
      const event = signEvent(key, template);
      await publish(relay.url, event);
      published.push(event);
    }
  });
  afterAll(async () => {
    await relay?.close();
    await dir.cleanup();
  });

  it('exports every stored event while the relay runs: once each, oldest first, signatures intact', async () => {
    const { stdout, stderr } = await station('export');
    const events = parse(stdout);
    expect(events).toHaveLength(published.length);
    expect(new Set(events.map((e) => e.id))).toEqual(new Set(published.map((e) => e.id)));
    for (const event of events) {
      expect(verifyEvent(event)).toBe(true);
      expect(Object.keys(event)).toEqual(['id', 'pubkey', 'created_at', 'kind', 'tags', 'content', 'sig']);
      expect(event).toEqual(published.find((p) => p.id === event.id));
    }
    const times = events.map((e) => e.created_at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(stderr).toContain(`${published.length} events exported`);
  });

  it('filters by --kinds and --since/--until, and writes --out whole, after the relay stopped', async () => {
    await relay!.close();
    relay = null;
    const target = join(dir.path, 'export', 'events.jsonl');
    const { stdout, stderr } = await station('export', '--kinds', '1,7', '--out', target);
    expect(stdout).toBe('');
    const kinds = parse(await readFile(target, 'utf8'));
    const wanted = published.filter((e) => e.kind === 1 || e.kind === 7);
    expect(new Set(kinds.map((e) => e.id))).toEqual(new Set(wanted.map((e) => e.id)));
    expect(stderr).toContain(`${wanted.length} events exported`);
    // Nothing but the file is left next to it (the temporary name was renamed).
    expect(await readdir(join(dir.path, 'export'))).toEqual(['events.jsonl']);

    const sorted = [...published].sort((a, b) => a.created_at - b.created_at);
    const since = sorted[2]!.created_at;
    const until = sorted[4]!.created_at;
    const window = parse((await station('export', '--since', `${since}`, '--until', `${until}`)).stdout);
    const inWindow = published.filter((e) => e.created_at >= since && e.created_at <= until);
    expect(new Set(window.map((e) => e.id))).toEqual(new Set(inWindow.map((e) => e.id)));
    expect(window.length).toBe(inWindow.length);
  });

  it('refuses malformed options with exit code 2', async () => {
    await expect(station('export', '--kinds', 'one')).rejects.toMatchObject({ code: 2 });
    await expect(station('export', '--since', 'yesterday')).rejects.toMatchObject({ code: 2 });
  });
});
