import { boolean, checkUrl, ConfigError, list, type Env } from './parse.js';

/**
 * Who may act as whom: the station's public origins and the legacy relay-login switch (docs/auth-model.md).
 */
export interface AuthConfig {
  /**
   * Origins (with an optional path prefix) clients address this station by (PUBLIC_URL): a NIP-98 `u` tag must
   * name one of them, or a loopback / local-interface address; X-Forwarded-Host counts only when it names one.
   */
  publicUrls: string[];
  /** AUTH_LEGACY_RELAY_LOGIN: a kind 22242 without a station challenge logs its key in from any address. */
  legacyRelayLogin: boolean;
  /**
   * CORS_ORIGINS: other sites (`scheme://host[:port]`) whose pages may call the authenticated routes from a
   * browser, and whose requests may ride on a relay-observed login.
   */
  corsOrigins: string[];
}

/** An origin has no path: `https://app.example/x` is most likely a typo for a URL, so it stops start-up. */
function origins(env: Env, name: string): string[] {
  return list(env, name, []).map((item) => {
    const url = new URL(checkUrl(name, item, ['http:', 'https:']));
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
      throw new ConfigError(name, `"${item}" must be an origin: scheme://host[:port], nothing after it`);
    return url.origin;
  });
}

export function authConfig(env: Env): AuthConfig {
  return {
    publicUrls: list(env, 'PUBLIC_URL', []).map((item) => checkUrl('PUBLIC_URL', item, ['http:', 'https:'])),
    legacyRelayLogin: boolean(env, 'AUTH_LEGACY_RELAY_LOGIN', false),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
  };
}
