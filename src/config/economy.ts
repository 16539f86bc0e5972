import { parseTemplate } from '../economy/payments/command.js';
import { deriveStationWallets, type StationWallets } from '../identity/keys.js';
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

/** Station wallets cost three scrypt runs; tests build many configs for the same network. */
function derivedWallets(uplanetName: string): Promise<StationWallets> {
  let wallets = walletCache.get(uplanetName);
  if (!wallets) {
    wallets = deriveStationWallets(uplanetName);
    walletCache.set(uplanetName, wallets);
  }
  return wallets;
}

/** The UPlanet's wallets, derived from its name unless the operator names one (an SS58 address). */
export async function stationWallets(env: Env, uplanetName: string): Promise<StationWallets> {
  const overrides = {
    reserve: walletOverride(env, 'UPLANETNAME_G1'),
    distribution: walletOverride(env, 'UPLANETG1PUB'),
    society: walletOverride(env, 'UPLANETNAME_SOCIETY'),
  };
  const derived = await derivedWallets(uplanetName);
  return {
    reserve: overrides.reserve ?? derived.reserve,
    distribution: overrides.distribution ?? derived.distribution,
    society: overrides.society ?? derived.society,
  };
}
