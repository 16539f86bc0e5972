import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { UserStore } from '../identity/user-store.js';
import type { CliCommand } from './command.js';

const HELP = `usage:
  station gc [--json]

Collects the content store's garbage now, as the station does every STORE_GC_INTERVAL_S: blocks no drive's
current root, no drive file or media, no pin and no CID handed out within STORE_KEEP_ROOTS_S reach are removed
(Kubo: such roots are unpinned, and \`ipfs repo gc\` removes their blocks). Safe beside a running station; one
collection runs at a time. Drives of an earlier version are imported first.`;

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, logger, out }) {
    let values;
    try {
      ({ values } = parseArgs({
        args,
        options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
      }));
    } catch (error) {
      console.error((error as Error).message);
      out(HELP);
      return 2;
    }
    if (values.help) {
      out(HELP);
      return 0;
    }
    const users = await UserStore.open(config.dataRoot, {
      uplanetName: config.uplanetName,
      logger,
      watch: false,
    });
    // Loaded once the command runs, not with the module: its --help stays instant (bench/cli.ts).
    const [{ openDriveServices }, { openStationDb }] = await Promise.all([
      import('../drive/services.js'),
      import('../state/station-db.js'),
    ]);
    const stationDb = await openStationDb(config.dataRoot);
    const services = await openDriveServices(config, {
      users,
      clock: systemClock,
      logger,
      retireBlobIndex: () => stationDb.retireBlobIndex(),
    });
    try {
      const migrated = await services.migration.all(users.list());
      if (migrated.failed > 0) {
        console.error(`${migrated.failed} drive(s) could not be imported into the index: nothing collected`);
        return 1;
      }
      const report = await services.collector.collect();
      if (values.json) out(JSON.stringify(report));
      else if (report.skipped === 'busy') out('another collection is running: nothing collected');
      else
        out(
          `removed ${report.blocks} blocks (${report.bytes} bytes), ${report.leaves} leaves, ${report.files} held files, ` +
            `${report.legacyBlocks} old block files; ${report.live} reachable; ${report.rootsExpired} roots expired ` +
            `(${report.unpinned} unpinned); ${report.ms} ms`,
        );
      return report.skipped === 'busy' ? 1 : 0;
    } finally {
      await services.close();
      await stationDb.close();
      users.close();
    }
  },
};
