#!/usr/bin/env node
import type { CliCommand } from './command.js';

interface CommandEntry {
  /** One line for `station --help`: what the command does. */
  summary: string;
  load: () => Promise<{ command: CliCommand }>;
}

/**
 * Sub-commands load lazily, and the configuration and logger only once a command runs: `station --help`
 * and `station users list` pay for nothing else (bench/cli.ts measures them).
 */
const COMMANDS: Record<string, CommandEntry> = {
  status: {
    summary: 'the station at a glance: service, relay, stores, users, drives, disk, payments',
    load: () => import('./status.js'),
  },
  users: {
    summary: 'add a user (its keys from salt and pepper) or list them',
    load: () => import('./users.js'),
  },
  payments: {
    summary: 'list the like payments, re-queue failed or interrupted ones',
    load: () => import('./payments.js'),
  },
  scrape: { summary: 'run the daily cookie scraper pass now', load: () => import('./scrape.js') },
  drive: { summary: "put files in a user's drive, list a drive", load: () => import('./drive.js') },
  http: { summary: 'send one request to the station, signed with NIP-98', load: () => import('./http.js') },
  relay: { summary: "export the embedded relay's events as JSON lines", load: () => import('./relay.js') },
  kubo: {
    summary: 'copy the drives from the embedded store into a Kubo node',
    load: () => import('./kubo.js'),
  },
  gc: { summary: "collect the content store's garbage now", load: () => import('./gc.js') },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  return [
    'usage: station <command> [options]',
    '',
    ...Object.entries(COMMANDS).map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`),
    '',
    'Run `station <command> --help` (or -h) for the options of one command.',
  ].join('\n');
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** `--help` or `-h` anywhere before a `--` that ends the options. */
function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end < 0 ? args : args.slice(0, end)).some((arg) => HELP_FLAGS.has(arg));
}

/**
 * `npm run station -- …` runs in the project's folder whatever the folder it was typed in: relative paths given
 * to a command (`-F file=@photo.jpg`, `--out events.jsonl`, `drive add notes.txt`) mean the caller's folder,
 * which npm passes on as INIT_CWD. Relative paths in the configuration keep meaning the project's folder.
 */
function workInCallersFolder(): void {
  const { npm_lifecycle_event: script, INIT_CWD: callersFolder } = process.env;
  if (script === 'station' && callersFolder) process.chdir(callersFolder);
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    console.error(usage());
    return 2;
  }
  if (HELP_FLAGS.has(name) || (name === 'help' && rest.length === 0)) {
    console.log(usage());
    return 0;
  }
  // `station help <command>`: that command's help.
  const wanted = name === 'help' ? rest[0]! : name;
  const entry = Object.hasOwn(COMMANDS, wanted) ? COMMANDS[wanted] : undefined;
  if (!entry) {
    console.error(`station: no command "${wanted}"\n\n${usage()}`);
    return 2;
  }
  const { command } = await entry.load();
  if (name === 'help' || wantsHelp(rest)) {
    console.log(command.help);
    return 0;
  }
  const [{ loadConfigWithoutWallets }, { createLogger }] = await Promise.all([
    import('../config/config.js'),
    import('../logger.js'),
  ]);
  // The configuration first, so that a relative DATA_ROOT means what it means to `npm start`.
  const config = loadConfigWithoutWallets();
  workInCallersFolder();
  // Commands print their results on stdout: their log lines go to stderr, warnings and worse by default.
  const level = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  const logger = createLogger({ level, format: config.logFormat, output: process.stderr });
  try {
    return await command.run(rest, { config, logger, out: (line) => process.stdout.write(`${line}\n`) });
  } catch (error) {
    // parseArgs refuses an unknown or malformed option with a code naming it: a usage error.
    if (!String((error as NodeJS.ErrnoException).code).startsWith('ERR_PARSE_ARGS')) throw error;
    console.error(`station ${wanted}: ${(error as Error).message}\n\n${command.help}`);
    return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A ConfigError (config/parse.ts), recognised by its code so that --help never loads the configuration.
    const config = (error as { code?: unknown }).code === 'CONFIG_INVALID';
    console.error(
      `${config ? 'configuration error: ' : ''}${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(config ? 78 : 1);
  },
);
