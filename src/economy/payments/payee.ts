import type { Filter, NostrEvent } from 'nostr-tools';
import type { Logger } from 'pino';
import type { UserLookup } from '../../identity/user-store.js';
import { toG1Address } from '../../identity/ss58.js';

export interface Payee {
  hex: string;
  wallet: string;
  source: 'local' | 'profile';
}

/** The station view's side of wallet look-ups: the newest kind-0 profile seen for an author. */
export interface ProfileWallets {
  walletOf(hex: string): string | null;
  /** Stores a kind-0 event fetched on demand (it only replaces an older profile). */
  putProfile(event: NostrEvent): unknown;
}

export interface RelayLookup {
  query(filters: Filter[], options?: { timeoutMs?: number }): Promise<NostrEvent[]>;
}

/**
 * Finds the Ğ1 wallet a like pays (docs/api-contract.md §9): the author's `G1PUBNOSTR` when the author is
 * local, otherwise the wallet of the author's kind-0 profile. A profile the stream has not seen yet (a
 * reaction can arrive before its author's profile in a backfill) is asked of the relay once before giving up.
 */
export class PayeeResolver {
  constructor(
    private readonly deps: {
      users: Pick<UserLookup, 'findByHex'>;
      profiles: ProfileWallets;
      relay?: RelayLookup;
      logger?: Logger;
      queryTimeoutMs?: number;
    },
  ) {}

  async resolve(authorHex: string): Promise<Payee | null> {
    const local = await this.deps.users.findByHex(authorHex);
    const localWallet = local?.g1pub ? toG1Address(local.g1pub) : null;
    if (localWallet) return { hex: authorHex, wallet: localWallet, source: 'local' };
    const known = this.deps.profiles.walletOf(authorHex);
    if (known) return { hex: authorHex, wallet: known, source: 'profile' };
    const fetched = await this.fetchProfile(authorHex);
    return fetched ? { hex: authorHex, wallet: fetched, source: 'profile' } : null;
  }

  private async fetchProfile(authorHex: string): Promise<string | null> {
    const { relay, profiles, logger } = this.deps;
    if (!relay) return null;
    try {
      const events = await relay.query([{ kinds: [0], authors: [authorHex], limit: 1 }], {
        timeoutMs: this.deps.queryTimeoutMs ?? 3_000,
      });
      // The relay client verified these signatures; only the author's own profiles count.
      for (const event of events)
        if (event.kind === 0 && event.pubkey === authorHex) profiles.putProfile(event);
    } catch (error) {
      logger?.debug({ err: error, author: authorHex }, 'profile look-up on the relay failed');
    }
    return profiles.walletOf(authorHex);
  }
}
