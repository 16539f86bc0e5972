import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createScanFixture, exists, recordingMailer, recordingScript, type ScanFixture } from './fixture.js';

const DAY = 86_400_000;

/** A process is gone when it no longer exists or is a zombie waiting for a reaper. */
async function alive(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return status !== null && !/^\d+ \(.*\) Z /.test(status);
}

describe('scraper runs', () => {
  let fx: ScanFixture;
  let mailer: ReturnType<typeof recordingMailer>;
  beforeEach(async () => {
    fx = await createScanFixture();
    mailer = recordingMailer();
  });
  afterEach(async () => fx.cleanup());

  it('runs <domain>.sh with <email> <absolute cookie path>; marker and log at the exact paths', async () => {
    await fx.addUser('alice@example.org');
    const cookie = await fx.writeCookie('alice@example.org', 'youtube.com');
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));

    const summary = await fx.scan(mailer);

    expect(summary).toMatchObject({ date: '2026-11-22', ran: 1, skipped: 0, notified: 0, failed: 0 });
    expect(await fx.out('runs')).toEqual([`yt alice@example.org ${cookie}`]);
    const marker = join(fx.tmpDir, 'youtube.com_sync_alice@example.org_2026-11-22.done');
    expect(await exists(marker)).toBe(true);
    const log = await readFile(join(fx.tmpDir, 'youtube.com_sync_alice@example.org.log'), 'utf8');
    const lines = log.trim().split('\n');
    expect(lines[0]).toMatch(/^=== 2026-11-22T20:12:00\.000 start .*youtube\.com\.sh alice@example\.org \//);
    expect(lines[1]).toBe('hello from yt for alice@example.org');
    expect(lines[2]).toMatch(/^=== 2026-11-22T20:12:00\.000 exit 0 \(\d+ ms\)$/);
    expect(mailer.sent).toEqual([]);
  });

  it('a second scan the same day skips; the next day runs again, appends to the log and prunes old markers', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'youtube.com');
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));

    await fx.scan(mailer);
    fx.clock.advance(3 * 3_600_000); // 23:12, same day
    const again = await fx.scan(mailer);
    expect(again.items).toEqual([
      { email: 'alice@example.org', domain: 'youtube.com', outcome: 'skipped', reason: 'already_ran_today' },
    ]);
    expect(await fx.out('runs')).toHaveLength(1);

    fx.clock.advance(DAY);
    expect((await fx.scan(mailer)).ran).toBe(1);
    expect(await fx.out('runs')).toHaveLength(2);
    const markers = (await readdir(fx.tmpDir)).filter((n) => n.endsWith('.done'));
    expect(markers).toEqual(['youtube.com_sync_alice@example.org_2026-11-23.done']);
    const log = await readFile(join(fx.tmpDir, 'youtube.com_sync_alice@example.org.log'), 'utf8');
    expect(log.match(/ start /g)).toHaveLength(2);
  });

  it('the marker is written when the run starts: a run still going blocks an overlapping scan', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'youtube.com');
    await fx.writeScript('youtube.com.sh', `#!/bin/sh\necho start >> "$OUT/runs"\nsleep 1\n`);
    const first = fx.scan(mailer);
    await vi.waitFor(async () => expect(await fx.out('runs')).toHaveLength(1));
    const overlapping = await fx.scan(mailer);
    expect(overlapping.items[0]).toMatchObject({ outcome: 'skipped', reason: 'already_ran_today' });
    expect((await first).ran).toBe(1);
    expect(await fx.out('runs')).toHaveLength(1);
  });

  it('concurrent scans over many users still run each (user, domain) once', async () => {
    for (let i = 0; i < 8; i++) {
      await fx.addUser(`user${i}@example.org`);
      await fx.writeCookie(`user${i}@example.org`, 'youtube.com');
    }
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));
    const summaries = await Promise.all([fx.scan(mailer), fx.scan(mailer), fx.scan(mailer)]);
    expect(summaries.reduce((n, s) => n + s.ran, 0)).toBe(8);
    expect(new Set(await fx.out('runs')).size).toBe(8);
    expect(await fx.out('runs')).toHaveLength(8);
  });

  it('kills a script (and its whole process group) at the time limit; the next one still runs', async () => {
    const short = await createScanFixture({ timeoutSeconds: 1, concurrency: 1 });
    try {
      await short.addUser('alice@example.org');
      await short.addUser('bob@example.org');
      await short.writeCookie('alice@example.org', 'slow.org');
      await short.writeCookie('bob@example.org', 'fast.org');
      // The slow script leaves a grandchild behind in the background and then hangs itself.
      await short.writeScript(
        'slow.org.sh',
        `#!/bin/sh\nsleep 300 &\necho $! > "$OUT/child"\necho $$ > "$OUT/leader"\nsleep 300\n`,
      );
      await short.writeScript('fast.org.sh', recordingScript('fast'));

      const summary = await short.scan(mailer);

      const byDomain = Object.fromEntries(summary.items.map((i) => [i.domain, i]));
      expect(byDomain['slow.org']).toMatchObject({ outcome: 'failed', reason: 'timeout' });
      expect(byDomain['fast.org']).toMatchObject({ outcome: 'ran' });
      const [leader] = await short.out('leader');
      const [child] = await short.out('child');
      await vi.waitFor(async () => {
        expect(await alive(Number(leader))).toBe(false);
        expect(await alive(Number(child))).toBe(false);
      });
      const log = await readFile(join(short.tmpDir, 'slow.org_sync_alice@example.org.log'), 'utf8');
      expect(log).toMatch(/killed after the time limit of 1 s/);
    } finally {
      await short.cleanup();
    }
  });

  it('a failing script is reported and does not stop the others', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'broken.org');
    await fx.writeCookie('alice@example.org', 'youtube.com');
    await fx.writeScript('broken.org.sh', '#!/bin/sh\necho "boom" >&2\nexit 7\n');
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));
    const summary = await fx.scan(mailer);
    expect(summary).toMatchObject({ ran: 1, failed: 1 });
    expect(summary.items.find((i) => i.domain === 'broken.org')).toMatchObject({
      reason: 'exit_status',
      exitCode: 7,
    });
    expect(await readFile(join(fx.tmpDir, 'broken.org_sync_alice@example.org.log'), 'utf8')).toMatch(
      /boom\n=== .* exit 7/,
    );
  });

  it('bounds the runs at once by SCRAPER_CONCURRENCY', async () => {
    const bounded = await createScanFixture({ concurrency: 2 });
    try {
      for (let i = 0; i < 6; i++) {
        await bounded.addUser(`user${i}@example.org`);
        await bounded.writeCookie(`user${i}@example.org`, 'youtube.com');
      }
      // Each run counts the runs present (itself included) while it lasts.
      await bounded.writeScript(
        'youtube.com.sh',
        `#!/bin/sh\nmkdir -p "$OUT/running"\ntouch "$OUT/running/$1"\nls "$OUT/running" | wc -l >> "$OUT/seen"\nsleep 0.3\nls "$OUT/running" | wc -l >> "$OUT/seen"\nrm "$OUT/running/$1"\n`,
      );
      expect((await bounded.scan(mailer)).ran).toBe(6);
      const seen = (await bounded.out('seen')).map(Number);
      expect(seen).toHaveLength(12);
      expect(Math.max(...seen)).toBe(2);
    } finally {
      await bounded.cleanup();
    }
  });
});
