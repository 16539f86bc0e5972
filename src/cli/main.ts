#!/usr/bin/env node
import { ConfigError, loadConfig } from '../config/config.js';
import { createLogger } from '../logger.js';
import type { CliCommand } from './command.js';

/** Sub-commands load lazily so `station users list` does not pay for the scraper or the drive. */
const COMMANDS: Record<string, () => Promise<{ command: CliCommand }>> = {
  users: () => import('./users.js'),
  payments: () => import('./payments.js'),
  scrape: () => import('./scrape.js'),
  drive: () => import('./drive.js'),
  http: () => import('./http.js'),
  relay: () => import('./relay.js'),
  kubo: () => import('./kubo.js'),
  gc: () => import('./gc.js'),
};

function usage(): string {
  return [
    'usage: station <command> [options]',
    '',
    ...Object.keys(COMMANDS).map((name) => `  ${name}`),
    '',
    'Run `station <command> --help` for the options of one command.',
  ].join('\n');
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
  const load = name ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(usage());
    return name && name !== '--help' ? 2 : 0;
  }
  // The configuration first, so that a relative DATA_ROOT means what it means to `npm start`.
  const config = await loadConfig();
  workInCallersFolder();
  // Commands print their results on stdout: their log lines go to stderr, warnings and worse by default.
  const level = process.env.LOG_LEVEL ? config.logLevel : 'warn';
  const logger = createLogger({ level, format: config.logFormat, output: process.stderr });
  const { command } = await load();
  return command.run(rest, { config, logger, out: (line) => process.stdout.write(`${line}\n`) });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
    else console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof ConfigError ? 78 : 1);
  },
);
