import type { Logger } from 'pino';
import type { Config } from '../config/config.js';

export interface CliContext {
  /** Without the station wallets: a command that needs them derives them (`stationWallets`, config/economy.ts). */
  config: Omit<Config, 'wallets'>;
  logger: Logger;
  /** One line of output on stdout (JSON for machine use, text for people). */
  out: (line: string) => void;
}

export interface CliCommand {
  /** Its usage and options, printed by `station <command> --help` (exit 0) and with a usage error. */
  help: string;
  /** Returns the process exit code: 0 ok, 1 failure, 2 usage error. */
  run(args: string[], context: CliContext): Promise<number>;
}
