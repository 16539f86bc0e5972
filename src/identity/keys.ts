import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { base58 } from '@scure/base';
import { getPublicKey, nip19 } from 'nostr-tools';
import { randomInt, scrypt } from 'node:crypto';
import { encodeSs58 } from './ss58.js';

/** Same parameters as the station tool `keygen` (Duniter's scrypt key derivation). */
export const KEYGEN_SCRYPT = { N: 4096, r: 16, p: 1 } as const;

export interface G1Key {
  seed: Uint8Array;
  /** Ed25519 public key, base58: the Ğ1 v1 form. */
  pubV1: string;
  /** SS58 address with the Ğ1 prefix (`g1…`): the v2 form. */
  address: string;
  /** base58 of seed ‖ public key, as in Duniter "PubSec" files. */
  secretV1: string;
}

export interface NostrKey {
  secretKey: Uint8Array;
  hex: string;
  npub: string;
  nsec: string;
}

/**
 * keygen's seed: scrypt(password = pepper, salt = salt), 32 bytes. Node's native scrypt runs on the libuv
 * pool, off the main thread (8 MiB and ~10 ms a key, against ~250 ms in pure JS on the main thread).
 */
export function deriveSeed(salt: string, pepper: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) =>
    scrypt(pepper, salt, 32, KEYGEN_SCRYPT, (error, key) =>
      error ? reject(error) : resolve(new Uint8Array(key)),
    ),
  );
}

export function g1KeyFromSeed(seed: Uint8Array): G1Key {
  const publicKey = ed25519.getPublicKey(seed);
  const secret = new Uint8Array(64);
  secret.set(seed);
  secret.set(publicKey, 32);
  return {
    seed,
    pubV1: base58.encode(publicKey),
    address: encodeSs58(publicKey),
    secretV1: base58.encode(secret),
  };
}

export function nostrKeyFromSeed(seed: Uint8Array): NostrKey {
  const secretKey = sha256(seed);
  const hex = getPublicKey(secretKey);
  return { secretKey, hex, npub: nip19.npubEncode(hex), nsec: nip19.nsecEncode(secretKey) };
}

export async function deriveG1Key(salt: string, pepper: string): Promise<G1Key> {
  return g1KeyFromSeed(await deriveSeed(salt, pepper));
}

export async function deriveNostrKey(salt: string, pepper: string): Promise<NostrKey> {
  return nostrKeyFromSeed(await deriveSeed(salt, pepper));
}

/** A user's Ğ1 wallet is salted by the network name so the same credentials differ between UPlanets. */
export function walletPepper(pepper: string, uplanetName: string): string {
  const tag = bytesToHex(sha256(new TextEncoder().encode(uplanetName))).slice(0, 16);
  return `${pepper}_${tag}`;
}

export interface TwinKeys {
  nostr: NostrKey;
  g1: G1Key;
}

export async function deriveTwinKeys(salt: string, pepper: string, uplanetName: string): Promise<TwinKeys> {
  const [nostr, g1] = await Promise.all([
    deriveNostrKey(salt, pepper),
    deriveG1Key(salt, walletPepper(pepper, uplanetName)),
  ]);
  return { nostr, g1 };
}

export interface StationWallets {
  /** UPLANETNAME_G1: the reserve. */
  reserve: string;
  /** UPLANETG1PUB: the distribution wallet. */
  distribution: string;
  /** UPLANETNAME_SOCIETY: the social-capital wallet. */
  society: string;
}

export async function deriveStationWallets(uplanetName: string): Promise<StationWallets> {
  const wallet = async (seedText: string) => (await deriveG1Key(seedText, seedText)).address;
  const [reserve, distribution, society] = await Promise.all([
    wallet(`${uplanetName}.G1`),
    wallet(uplanetName),
    wallet(`${uplanetName}.SOCIETY`),
  ]);
  return { reserve, distribution, society };
}

const CREDENTIAL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 24 characters from a CSPRNG, the length the station's tools use for SALT and PEPPER. */
export function randomCredential(length = 24): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CREDENTIAL_ALPHABET[randomInt(CREDENTIAL_ALPHABET.length)];
  return out;
}
