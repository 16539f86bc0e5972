import { InvalidInput, NotFound } from '../errors.js';
import { normaliseEmail } from '../identity/email.js';
import type { UserLookup } from '../identity/user-store.js';
import { toG1Address } from '../identity/ss58.js';
import { balanceZen, centsToG1, formatG1 } from './amounts.js';
import { staleFields, type Ledger } from './ledger.js';

export interface BalanceReport {
  g1pub: string;
  address: string;
  balance: string;
  balance_g1: number;
  zen: number;
  /** Only when the indexer could not give a current balance (docs/api-contract.md §10). */
  stale?: true;
  cached_at?: string;
}

/**
 * `g1pub` may be a v1 base58 key, an SS58 address, or the e-mail of a local user (whose `G1PUBNOSTR` is
 * used). Returns the key as given (or the user's wallet) and the SS58 address the indexer knows.
 */
export async function resolveWallet(
  input: string,
  users: Pick<UserLookup, 'findByEmail'>,
): Promise<{ g1pub: string; address: string }> {
  const key = input.trim();
  if (key.includes('@')) {
    if (!normaliseEmail(key)) {
      throw new InvalidInput('INVALID_EMAIL', {
        en: 'A valid e-mail address is required (name@domain.tld).',
        fr: 'Une adresse e-mail valide est requise (nom@domaine.tld).',
      });
    }
    const user = await users.findByEmail(key);
    if (!user)
      throw new NotFound('UNKNOWN_USER', {
        en: 'No local user has this e-mail address.',
        fr: 'Aucun utilisateur de cette station n’a cette adresse e-mail.',
      });
    const address = user.g1pub ? toG1Address(user.g1pub) : null;
    if (!address)
      throw new NotFound('NO_WALLET', {
        en: 'This user has no Ğ1 wallet (G1PUBNOSTR).',
        fr: 'Cet utilisateur n’a pas de portefeuille Ğ1 (G1PUBNOSTR).',
      });
    return { g1pub: user.g1pub!, address };
  }
  const address = toG1Address(key);
  if (!address) {
    throw new InvalidInput('INVALID_G1PUB', {
      en: 'g1pub must be a Ğ1 public key (v1 base58 or g1… SS58 address) or the e-mail of a local user.',
      fr: 'g1pub doit être une clé publique Ğ1 (base58 v1 ou adresse SS58 g1…) ou l’e-mail d’un utilisateur de cette station.',
    });
  }
  return { g1pub: key, address };
}

export async function balanceReport(
  input: string,
  deps: { users: Pick<UserLookup, 'findByEmail'>; ledger: Pick<Ledger, 'balance'> },
): Promise<BalanceReport> {
  const { g1pub, address } = await resolveWallet(input, deps.users);
  const reading = await deps.ledger.balance(address);
  const cents = reading.value;
  return {
    g1pub,
    address,
    balance: formatG1(cents),
    balance_g1: centsToG1(cents),
    zen: balanceZen(cents),
    ...staleFields(reading),
  };
}
