import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { unixSeconds, type Clock } from '../../clock.js';
import type { UserRecord } from '../../identity/user-files.js';
import { readSecretKeyBytes } from '../../identity/station-key.js';
import { fileMetadataEvent, type FileMetadata } from '../../nostr/nip94.js';
import { signEventOffThread } from '../../nostr/sign.js';
import type { RelayLink } from '../../relay/link.js';

export interface MetadataPublisherDeps {
  relay: Pick<RelayLink, 'publish'>;
  /** The user's directory, where the station keeps their `.secret.nostr`. */
  dirFor: (email: string) => string;
  clock: Clock;
  logger: Logger;
  /** PUBLISH_FILE_METADATA. */
  enabled: boolean;
}

/**
 * Announces new uploads with NIP-94 (kind 1063), signed with the uploader's own key, which the station keeps
 * for its users: their followers' clients see the file as theirs. Runs after the answer; a relay that is
 * down costs the uploader nothing but the announcement, which is logged.
 */
export class MetadataPublisher {
  /** What became of the announcements asked for (tests and operators count them). */
  readonly stats = { published: 0, declined: 0, failed: 0 };
  /**
   * Secret keys by public key, once one signed as its owner: a key never changes for its public key, and
   * reading and decoding `.secret.nostr` for each upload of a busy user costs more than the signature.
   */
  private readonly keys = new LRUCache<string, Uint8Array>({ max: 1_000 });

  constructor(private readonly deps: MetadataPublisherDeps) {}

  /** An upload whose sender or station said no announcement (counted, nothing sent). */
  decline(): void {
    this.stats.declined++;
  }

  get enabled(): boolean {
    return this.deps.enabled;
  }

  /** Resolves with the published event id, or null when not published; never rejects. */
  async publish(
    user: Pick<UserRecord, 'email' | 'hex'>,
    file: FileMetadata,
    caption = '',
  ): Promise<string | null> {
    if (!this.deps.enabled) {
      this.decline();
      return null;
    }
    const { logger } = this.deps;
    try {
      const secretKey =
        this.keys.get(user.hex) ??
        (await readSecretKeyBytes(join(this.deps.dirFor(user.email), '.secret.nostr')));
      const event =
        secretKey &&
        (await signEventOffThread(fileMetadataEvent(file, unixSeconds(this.deps.clock), caption), secretKey));
      if (secretKey && event?.pubkey === user.hex) this.keys.set(user.hex, secretKey);
      if (!event || event.pubkey !== user.hex) {
        logger.warn({ pubkey: user.hex }, 'nip94: no key of this user on the station; file not announced');
        this.stats.failed++;
        return null;
      }
      const answer = await this.deps.relay.publish(event);
      if (!answer.accepted) {
        logger.warn({ id: event.id, reason: answer.message }, 'nip94: the relay refused the file metadata');
        this.stats.failed++;
        return null;
      }
      logger.debug({ id: event.id, pubkey: user.hex, sha256: file.sha256 }, 'nip94: file metadata published');
      this.stats.published++;
      return event.id;
    } catch (error) {
      logger.warn({ err: error, pubkey: user.hex }, 'nip94: file metadata not published');
      this.stats.failed++;
      return null;
    }
  }
}
