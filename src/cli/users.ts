import { parseArgs } from 'node:util';
import { parseCoordinate } from '../geo/coordinates.js';
import { UserStore } from '../identity/user-store.js';
import type { CliCommand } from './command.js';
import { printTable } from './table.js';

const HELP = `usage:
  station users add <email> [--lat <lat> --lon <lon>] [--salt <salt> --pepper <pepper>] [--lang fr]
  station users list [--json]`;

export const command: CliCommand = {
  help: HELP,
  async run(args, { config, logger, out }) {
    const [action, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        lat: { type: 'string' },
        lon: { type: 'string' },
        salt: { type: 'string' },
        pepper: { type: 'string' },
        lang: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help || !action) {
      out(HELP);
      return action ? 0 : 2;
    }
    const store = await UserStore.open(config.dataRoot, {
      uplanetName: config.uplanetName,
      logger,
      watch: false,
    });
    try {
      if (action === 'list') {
        const users = store.list().sort((a, b) => a.email.localeCompare(b.email));
        if (values.json) out(JSON.stringify(users));
        else
          printTable(
            out,
            ['email', 'npub', 'g1pub'],
            users.map((u) => [u.email, u.npub, u.g1pub ?? '-']),
            `no users on this station (${config.dataRoot}/nostr)`,
          );
        return 0;
      }
      if (action === 'add') {
        const email = positionals[0];
        if (!email) {
          out(HELP);
          return 2;
        }
        const lat = parseCoordinate(values.lat, 90);
        const lon = parseCoordinate(values.lon, 180);
        if ((values.lat || values.lon) && (lat === null || lon === null)) {
          console.error('--lat and --lon must be decimal degrees within range');
          return 2;
        }
        const created = await store.create({
          email,
          salt: values.salt ?? null,
          pepper: values.pepper ?? null,
          gps: lat !== null && lon !== null ? { lat, lon } : null,
          lang: values.lang ?? null,
        });
        // Shown once: the operator hands these to the user; they are not stored in clear anywhere else.
        out(
          JSON.stringify({
            email: created.record.email,
            npub: created.keys.nostr.npub,
            hex: created.keys.nostr.hex,
            g1pub: created.keys.g1.address,
            nsec: created.keys.nostr.nsec,
            salt: created.salt,
            pepper: created.pepper,
          }),
        );
        return 0;
      }
      out(HELP);
      return 2;
    } finally {
      store.close();
    }
  },
};
