import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../clock.js';
import { StationError } from '../errors.js';
import { UserStore } from '../identity/user-store.js';
import type { CliCommand } from './command.js';
import { printTable } from './table.js';

const HELP = `usage:
  station drive add --user <email> <file>...   put files in the user's drive; one JSON line per file
  station drive ls --user <email> [--json]      list the drive (path, size, CID), then its root CID`;

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, logger, out }) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        user: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help || !action || !values.user || (action === 'add' && positionals.length === 0)) {
      out(HELP);
      return values.help ? 0 : 2;
    }
    if (action !== 'add' && action !== 'ls') {
      out(HELP);
      return 2;
    }
    const users = await UserStore.open(config.dataRoot, {
      uplanetName: config.uplanetName,
      logger,
      watch: false,
    });
    // The same index and stores as a running station: each change is one transaction, shared with it.
    // Loaded once the command runs, not with the module: its --help stays instant (bench/cli.ts).
    const [{ openDriveServices }, { answerForCli, addFileFromDisk }] = await Promise.all([
      import('../drive/services.js'),
      import('../drive/cli-add.js'),
    ]);
    const services = await openDriveServices(config, { users, clock: systemClock, logger });
    const { drive } = services;
    try {
      const user = await users.findByEmail(values.user);
      if (!user) {
        console.error(`no user ${values.user} on this station`);
        return 1;
      }
      if (action === 'ls') {
        const manifest = await drive.list(user);
        if (values.json) out(JSON.stringify(manifest));
        else {
          const rows = manifest.files.map((f) => [f.path, String(f.size), f.cid]);
          printTable(out, ['path', 'size', 'cid'], rows, `the drive of ${user.email} is empty`);
          out(`root\t${manifest.total_size}\t${manifest.root_cid ?? '-'}`);
        }
        return 0;
      }
      let failures = 0;
      for (const file of positionals) {
        try {
          const result = await addFileFromDisk(drive, user, basename(file), createReadStream(file));
          out(JSON.stringify({ file, ...answerForCli(result, basename(file)) }));
        } catch (error) {
          failures += 1;
          const code =
            error instanceof StationError ? error.code : ((error as NodeJS.ErrnoException).code ?? 'FAILED');
          out(JSON.stringify({ file, success: false, code, detail: (error as Error).message }));
        }
      }
      return failures > 0 ? 1 : 0;
    } finally {
      // Waits for the changes, then writes the drive's manifest.json (drive/export.ts).
      await services.close();
      users.close();
    }
  },
};
