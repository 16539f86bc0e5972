import { parseTemplate } from '../economy/payments/command.js';
import type { StationWallets } from '../identity/keys.js';
import { decodeSs58 } from '../identity/ss58.js';
import { ConfigError, raw, type Env } from './parse.js';

/**
 * The economy's variables: checked here with the economy's own parsers, so that a bad payment template or
 * wallet address stops start-up (exit 78) instead of failing every like.
 */

/** The template is split once here so a typo stops start-up instead of failing every like. */
export function paymentCommand(env: Env): string | null {
  const value = raw(env, 'PAYMENT_COMMAND');
  if (value === undefined) return null;
  try {
    parseTemplate(value);
  } catch (error) {
    throw new ConfigError('PAYMENT_COMMAND', (error as Error).message);
  }
  return value;
}

function walletOverride(env: Env, name: string): string | undefined {
  const value = raw(env, name);
  if (value !== undefined && !decodeSs58(value))
    throw new ConfigError(name, `"${value}" is not a g1… SS58 address`);
  return value;
}

const walletCache = new Map<string, Promise<StationWallets>>();

/**
 * Station wallets cost three scrypt runs; tests build many configs for the same network. The key module is
 * loaded only here: the CLI's commands that need no wallet never load it.
 */
function derivedWallets(uplanetName: string): Promise<StationWallets> {
  let wallets = walletCache.get(uplanetName);
  if (!wallets) {
    wallets = import('../identity/keys.js').then((keys) => keys.deriveStationWallets(uplanetName));
    walletCache.set(uplanetName, wallets);
  }
  return wallets;
}

function walletOverrides(env: Env): Partial<StationWallets> {
  return {
    reserve: walletOverride(env, 'UPLANETNAME_G1'),
    distribution: walletOverride(env, 'UPLANETG1PUB'),
    society: walletOverride(env, 'UPLANETNAME_SOCIETY'),
  };
}

/** A malformed wallet address stops start-up even where the wallets are not derived (the CLI). */
export function checkWalletOverrides(env: Env): void {
  walletOverrides(env);
}

/** The UPlanet's wallets, derived from its name unless the operator names one (an SS58 address). */
export async function stationWallets(env: Env, uplanetName: string): Promise<StationWallets> {
  const overrides = walletOverrides(env);
  const derived = await derivedWallets(uplanetName);
  return {
    reserve: overrides.reserve ?? derived.reserve,
    distribution: overrides.distribution ?? derived.distribution,
    society: overrides.society ?? derived.society,
  };
}
