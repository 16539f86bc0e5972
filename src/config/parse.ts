import { isAbsolute, resolve } from 'node:path';
import { isIP } from 'node:net';

/** Raised for any environment variable that cannot be used; start-up stops with its message. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Reads one variable; empty strings count as unset so `FOO=` in a PM2 file falls back to the default. */
export function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new ConfigError(name, `"${value}" is not a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new ConfigError(name, `${n} is outside ${min}…${max}`);
  return n;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(name, `"${value}" is not true or false`);
}

export function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ConfigError(name, `"${value}" is not one of ${choices.join(', ')}`);
  }
  return value as T;
}

/** Absolute paths only: a relative DATA_ROOT would silently depend on PM2's working directory. */
export function absolutePath(env: Env, name: string, fallback: string): string {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const expanded = value.startsWith('~/') ? resolve(env.HOME ?? '/', value.slice(2)) : value;
  if (!isAbsolute(expanded)) throw new ConfigError(name, `"${value}" must be an absolute path`);
  return resolve(expanded);
}

export function url(
  env: Env,
  name: string,
  fallback: string | null,
  protocols: readonly string[],
): string | null {
  const value = raw(env, name) ?? fallback;
  return value === null ? null : checkUrl(name, value, protocols);
}

export function checkUrl(name: string, value: string, protocols: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `"${value}" is not a URL`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `"${value}" must use ${protocols.join(' or ')}`);
  }
  return value.replace(/\/+$/, '');
}

export function list(env: Env, name: string, fallback: readonly string[]): string[] {
  const value = raw(env, name);
  if (value === undefined) return [...fallback];
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** IPs or CIDR ranges (v4 or v6), as accepted by TRUSTED_IPS and TRUSTED_PROXIES. */
export function addressList(env: Env, name: string, fallback: readonly string[]): string[] {
  const items = list(env, name, fallback);
  for (const item of items) {
    const [address, bits, extra] = item.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || extra !== undefined) {
      throw new ConfigError(name, `"${item}" is not an IP address or CIDR range`);
    }
  }
  return items;
}

export function timeOfDay(env: Env, name: string, fallback: string): { hour: number; minute: number } {
  const value = raw(env, name) ?? fallback;
  const match = /^(\d{1,2}):(\d{2})$/.exec(value);
  const hour = Number(match?.[1]);
  const minute = Number(match?.[2]);
  if (!match || hour > 23 || minute > 59) throw new ConfigError(name, `"${value}" is not a time like 20:12`);
  return { hour, minute };
}

export function email(env: Env, name: string): string | null {
  const value = raw(env, name);
  if (value === undefined) return null;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value))
    throw new ConfigError(name, `"${value}" is not an e-mail address`);
  return value;
}
