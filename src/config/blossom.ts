import { boolean, checkUrl, integer, list, type Env } from './parse.js';

/** The NOSTR-native drive: Blossom (BUD-01/02/04/06/11/12), NIP-96 and the NIP-94 events of uploads. */
export interface BlossomConfig {
  /** Publish a kind-1063 event, signed with the uploader's key, for every new upload (PUBLISH_FILE_METADATA). */
  publishFileMetadata: boolean;
  /** `GET /list/<pubkey>` needs a `list` token of that key (BLOSSOM_LIST_AUTH); open by default, as BUD-12. */
  listRequiresAuth: boolean;
  /** Largest blob `PUT /mirror` fetches (MIRROR_MAX_MB); the uploader's quota applies as well. */
  mirrorMaxBytes: number;
  /** How long a mirror fetch may stay silent (MIRROR_TIMEOUT, seconds). */
  mirrorTimeoutMs: number;
  /**
   * The whole mirror fetch (MIRROR_DEADLINE, seconds) and the least rate its body keeps
   * (MIRROR_MIN_BYTES_PER_S, 0 = none) over every MIRROR_RATE_WINDOW seconds once one has passed: an origin
   * that drips bytes must not hold its uploader's slots (src/drive/blossom/transfer-watch.ts).
   */
  mirrorPace: { deadlineMs: number; minBytesPerSecond: number; rateWindowMs: number };
  /**
   * Origins `PUT /mirror` may fetch from although they resolve to private addresses (MIRROR_TRUSTED_ORIGINS):
   * sister stations on the same LAN. Every other private, loopback or link-local address is refused.
   */
  mirrorTrustedOrigins: string[];
}

export function blossomConfig(env: Env): BlossomConfig {
  return {
    publishFileMetadata: boolean(env, 'PUBLISH_FILE_METADATA', true),
    listRequiresAuth: boolean(env, 'BLOSSOM_LIST_AUTH', false),
    mirrorMaxBytes: integer(env, 'MIRROR_MAX_MB', 100, 1, 1_000_000) * 1024 * 1024,
    mirrorTimeoutMs: integer(env, 'MIRROR_TIMEOUT', 30, 1, 3_600) * 1000,
    mirrorPace: {
      deadlineMs: integer(env, 'MIRROR_DEADLINE', 120, 1, 86_400) * 1000,
      minBytesPerSecond: integer(env, 'MIRROR_MIN_BYTES_PER_S', 16_384, 0, 1_000_000_000),
      rateWindowMs: integer(env, 'MIRROR_RATE_WINDOW', 10, 1, 3_600) * 1000,
    },
    mirrorTrustedOrigins: list(env, 'MIRROR_TRUSTED_ORIGINS', []).map(
      (item) => new URL(checkUrl('MIRROR_TRUSTED_ORIGINS', item, ['http:', 'https:'])).origin,
    ),
  };
}
