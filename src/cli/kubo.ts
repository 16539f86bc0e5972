import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { UserStore } from '../identity/user-store.js';
import type { CliCommand } from './command.js';

const HELP = `usage:
  station kubo import [--ipfs-api <url>] [--user <email>] [--json]

Copies every drive (or one user's) from the embedded store (DATA_ROOT/ipfs-store) into a Kubo node through
its RPC API (default: IPFS_API), pins each drive's root, file wrappers and media folders there, and checks
the pins. One line per user: e-mail, root CID, blocks, bytes. Running it again is harmless.`;

function apiUrl(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http(s)');
  return value;
}

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, logger, out }) {
    const [action, ...rest] = args;
    let values;
    try {
      ({ values } = parseArgs({
        args: rest,
        options: {
          'ipfs-api': { type: 'string' },
          user: { type: 'string' },
          json: { type: 'boolean', default: false },
          help: { type: 'boolean', default: false },
        },
      }));
    } catch (error) {
      console.error((error as Error).message);
      out(HELP);
      return 2;
    }
    if (values.help || action !== 'import') {
      out(HELP);
      return values.help ? 0 : 2;
    }
    let api: string;
    try {
      api = apiUrl(values['ipfs-api'] ?? config.ipfsApi ?? '');
    } catch {
      console.error(
        '--ipfs-api (or IPFS_API) must be the http(s) URL of Kubo RPC API, e.g. http://127.0.0.1:5001',
      );
      return 2;
    }
    const storeDir = join(config.dataRoot, 'ipfs-store');
    if (!(await stat(storeDir).catch(() => null))?.isDirectory()) {
      console.error(`no embedded content store at ${storeDir}`);
      return 1;
    }
    // Loaded once the command runs, not with the module: its --help stays instant (bench/cli.ts).
    const [{ KuboImporter }, { openDriveServices }, { KuboStore }] = await Promise.all([
      import('../drive/kubo-import.js'),
      import('../drive/services.js'),
      import('../drive/store/kubo.js'),
    ]);
    const kubo = new KuboStore(api, { logger });
    const health = await kubo.health();
    if (!health.ok) {
      console.error(`Kubo at ${api} does not answer: ${health.detail}`);
      return 1;
    }
    const users = await UserStore.open(config.dataRoot, {
      uplanetName: config.uplanetName,
      logger,
      watch: false,
    });
    // The embedded store and the drive index as the station keeps them (IPFS_API is the import's target here).
    const services = await openDriveServices(
      { ...config, ipfsApi: null },
      { users, clock: systemClock, logger },
    );
    try {
      const chosen = values.user ? [await users.findByEmail(values.user)] : users.list();
      if (chosen[0] === null) {
        console.error(`no user ${values.user} on this station`);
        return 1;
      }
      const importer = new KuboImporter(api, kubo, services.embedded!.blocks);
      let failures = 0;
      for (const user of chosen.filter((u) => u !== null).sort((a, b) => a.email.localeCompare(b.email))) {
        try {
          const done = await importer.importDrive(services.drive, services.reads, user);
          if (values.json) out(JSON.stringify({ email: user.email, ...done }));
          else out(`${user.email}\t${done.root ?? '-'}\t${done.blocks}\t${done.bytes}`);
        } catch (error) {
          failures += 1;
          console.error(`${user.email}: ${(error as Error).message}`);
        }
      }
      return failures > 0 ? 1 : 0;
    } finally {
      await services.close();
      users.close();
    }
  },
};
