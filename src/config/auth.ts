import { boolean, checkUrl, list, type Env } from './parse.js';

/** Who may act as whom: the station's public origins and the legacy relay-login switch (docs/auth.md). */
export interface AuthConfig {
  /**
   * Origins (with an optional path prefix) clients address this station by (PUBLIC_URL): a NIP-98 `u` tag must
   * name one of them, or a loopback / local-interface address; X-Forwarded-Host counts only when it names one.
   */
  publicUrls: string[];
  /** AUTH_LEGACY_RELAY_LOGIN: a kind 22242 without a station challenge logs its key in from any address. */
  legacyRelayLogin: boolean;
}

export function authConfig(env: Env): AuthConfig {
  return {
    publicUrls: list(env, 'PUBLIC_URL', []).map((item) => checkUrl('PUBLIC_URL', item, ['http:', 'https:'])),
    legacyRelayLogin: boolean(env, 'AUTH_LEGACY_RELAY_LOGIN', false),
  };
}
