import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScanFixture, exists, recordingMailer, recordingScript, type ScanFixture } from './fixture.js';

describe('which cookie files and which scripts a scan picks', () => {
  let fx: ScanFixture;
  let mailer: ReturnType<typeof recordingMailer>;
  beforeEach(async () => {
    fx = await createScanFixture();
    mailer = recordingMailer();
  });
  afterEach(async () => fx.cleanup());

  it('looks up SCRIPTS_DIR/<domain>.sh first, then sub-folders in name order', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'top.org');
    await fx.writeCookie('alice@example.org', 'nested.org');
    await fx.writeScript('top.org.sh', recordingScript('top-level'));
    await fx.writeScript('b-folder/top.org.sh', recordingScript('b-top'));
    await fx.writeScript('b-folder/nested.org.sh', recordingScript('b-nested'));
    await fx.writeScript('a-folder/nested.org.sh', recordingScript('a-nested'));
    await fx.writeScript('c-folder/nested.org.sh', recordingScript('c-nested'));
    await fx.scan(mailer);
    const runs = (await fx.out('runs')).map((line) => line.split(' ')[0]).sort();
    expect(runs).toEqual(['a-nested', 'top-level']);
  });

  it('never runs a non-executable script: an executable later match wins, otherwise nothing runs and nobody is mailed', async () => {
    await fx.addUser('alice@example.org');
    await fx.writeCookie('alice@example.org', 'plain.org');
    await fx.writeCookie('alice@example.org', 'mixed.org');
    await fx.writeScript('plain.org.sh', recordingScript('plain'), false);
    await fx.writeScript('mixed.org.sh', recordingScript('mixed-top'), false);
    await fx.writeScript('sub/mixed.org.sh', recordingScript('mixed-sub'));
    const summary = await fx.scan(mailer);
    expect(await fx.out('runs')).toEqual([expect.stringMatching(/^mixed-sub /)]);
    expect(summary.items.find((i) => i.domain === 'plain.org')).toMatchObject({
      outcome: 'failed',
      reason: 'script_not_executable',
    });
    expect(await exists(join(fx.tmpDir, 'plain.org_sync_alice@example.org_2026-11-22.done'))).toBe(false);
    expect(mailer.sent).toEqual([]);
  });

  it('ignores symbolic links, invalid names and the domain-less .cookie.txt', async () => {
    const dir = await fx.addUser('alice@example.org');
    await writeFile(join(fx.root, 'elsewhere'), 'x');
    await symlink(join(fx.root, 'elsewhere'), join(dir, '.linked.org.cookie'));
    await writeFile(join(dir, '.cookie.txt'), 'x');
    await writeFile(join(dir, '.bad..name.cookie'), 'x');
    await fx.addUser('Not An Email');
    await fx.writeCookie('Not An Email', 'youtube.com');
    await fx.writeScript('linked.org.sh', recordingScript('linked'));
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));
    expect((await fx.scan(mailer)).items).toEqual([]);
  });

  it('limits a scan to one user and/or one domain', async () => {
    for (const email of ['alice@example.org', 'bob@example.org']) {
      await fx.addUser(email);
      await fx.writeCookie(email, 'youtube.com');
      await fx.writeCookie(email, 'leboncoin.fr');
    }
    await fx.writeScript('youtube.com.sh', recordingScript('yt'));
    await fx.writeScript('leboncoin.fr.sh', recordingScript('lbc'));
    const one = await fx.scan(mailer, {}, { email: 'bob@example.org', domain: 'leboncoin.fr' });
    expect(one.items).toEqual([
      { email: 'bob@example.org', domain: 'leboncoin.fr', outcome: 'ran', reason: 'ok', exitCode: 0 },
    ]);
    expect((await fx.scan(mailer, {}, { domain: 'youtube.com' })).ran).toBe(2);
    expect(
      (await fx.scan(mailer, {}, { email: 'alice@example.org' })).items.map((i) => i.outcome).sort(),
    ).toEqual(['ran', 'skipped']);
  });
});
