import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATED_KEY } from '../../../src/drive/migrate/migration.js';
import { driveFixture, openDriveAt, type DriveFixture } from '../drive-fixture.js';
import { once_ } from '../helpers.js';

describe('collections beside live uploads', () => {
  let f: DriveFixture | undefined;
  afterEach(async () => f?.close());

  it('never take a block a drive refers to, with roots kept 0 s and two services writing', async () => {
    f = await driveFixture({ env: { STORE_KEEP_ROOTS_S: '0' } });
    const second = await openDriveAt(f.root, { env: { STORE_KEEP_ROOTS_S: '0' } });
    try {
      await f.services.db.meta.put(MIGRATED_KEY, true);
      const users = [f.user('a@example.org'), f.user('b@example.org')];
      let stop = false;
      const writers = [f.drive, second.drive].flatMap((drive, d) =>
        users.map(async (user, u) => {
          const mine: string[] = [];
          for (let i = 0; !stop; i++) {
            // Some of them the same bytes as another writer's: held again, shared, collected in between.
            const bytes =
              i % 4 === 0 ? Buffer.from(`shared ${i % 20}`) : randomBytes(1000 + (i % 7) * 70_000);
            const result = await drive.addStream(user, `w${d}-${u}-${i}.bin`, once_(bytes), { kind: 'cli' });
            mine.push(result.entry.path);
            if (i % 3 === 2) await drive.delete(user, mine.shift()!);
          }
        }),
      );
      let collections = 0;
      const collectors = [f.services.collector, second.collector].map(async (collector) => {
        while (!stop) {
          const report = await collector.collect();
          if (!report.skipped) collections += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      stop = true;
      await Promise.all([...writers, ...collectors]);
      await f.services.collector.collect();
      expect(collections).toBeGreaterThan(5);
      for (const user of users) {
        const list = await f.drive.list(user);
        expect(list.files.length).toBeGreaterThan(0);
        expect(await f.store.holds(list.root_cid!), 'the whole tree of the current root').toBe(true);
        for (const file of list.files) {
          expect(await f.store.holds(file.cid), file.path).toBe(true);
          expect(await f.store.holds(file.ipfs_link.split('/')[0]!), `wrapper of ${file.path}`).toBe(true);
        }
      }
    } finally {
      await second.close();
    }
  });
});
