import { createHash } from 'node:crypto';
import type { Database, Key, RootDatabase } from 'lmdb';
import type { NostrEvent } from 'nostr-tools';
import { expirationOf } from '../../nostr/nip40.js';
import { kindClass, tagValue } from '../../nostr/event.js';

/** Tags whose first value is indexed (NIP-01 filters the relay is asked for most). */
export const INDEXED_TAGS: ReadonlySet<string> = new Set(['e', 'p', 't', 'g', 'd']);
/** Longer tag values are indexed by their prefix; the full filter check after the index settles the match. */
export const MAX_INDEXED_VALUE = 256;
/** Greater than any hex id: the upper bound of a `[..., created_at, id]` range at one second. */
export const ID_MAX = '\uffff';

/** The layout these databases make (meta `schema`): the store and its export refuse any other. */
export const STORE_SCHEMA = 1;

/** How many named databases the environment may hold (openDbs opens them). */
export const MAX_DBS = 16;

/**
 * The named databases of one LMDB environment. Index databases map ordered-binary array keys to an empty
 * value; every key ends with `created_at, id`, so one reverse range read walks a filter's events newest first.
 */
export interface StoreDbs {
  root: RootDatabase;
  /** id → event */
  events: Database<NostrEvent, string>;
  /** [created_at, id] */
  byTime: Database<Buffer, Key>;
  /** [kind, created_at, id] */
  byKind: Database<Buffer, Key>;
  /** [pubkey, created_at, id] */
  byAuthor: Database<Buffer, Key>;
  /** [pubkey, kind, created_at, id] */
  byAuthorKind: Database<Buffer, Key>;
  /** [tag name, value (first 256 chars), created_at, id] */
  byTag: Database<Buffer, Key>;
  /** [expiration, id] */
  byExpiration: Database<Buffer, Key>;
  /** coordinate key (see coordinateKey) → id of the version kept */
  coordinates: Database<string, Key>;
  /** [deleted id, deleter pubkey] → id of the kind-5 event; keyed by both so a stranger can't shadow the author */
  deletedIds: Database<string, Key>;
  /** coordinate key → created_at of the newest kind-5 deleting it */
  deletedCoordinates: Database<number, Key>;
  /** 'count' → stored events; 'schema' → layout version */
  meta: Database<number, string>;
}

export function openDbs(root: RootDatabase): StoreDbs {
  const index = (name: string) => root.openDB<Buffer, Key>(name, { encoding: 'binary' });
  return {
    root,
    events: root.openDB<NostrEvent, string>('events', { encoding: 'msgpack' }),
    byTime: index('by-time'),
    byKind: index('by-kind'),
    byAuthor: index('by-author'),
    byAuthorKind: index('by-author-kind'),
    byTag: index('by-tag'),
    byExpiration: index('by-expiration'),
    coordinates: root.openDB<string, Key>('coordinates', { encoding: 'msgpack' }),
    deletedIds: root.openDB<string, Key>('deleted-ids', { encoding: 'msgpack' }),
    deletedCoordinates: root.openDB<number, Key>('deleted-coordinates', { encoding: 'msgpack' }),
    meta: root.openDB<number, string>('meta', { encoding: 'msgpack' }),
  };
}

/**
 * The form a string takes inside an index key: ordered-binary can't hold NUL and keys are bounded (1,978
 * bytes), so values are cut and NUL replaced. Lossy on purpose: queries normalize the same way and then check
 * the real value.
 */
export function indexValue(value: string): string {
  return value.slice(0, MAX_INDEXED_VALUE).replaceAll('\0', '\u0001');
}

/** Key of a replaceable / addressable coordinate; a long or odd `d` is hashed (the 4-element key keeps it apart). */
export function coordinateKey(kind: number, pubkey: string, d: string): Key {
  if (d.length <= MAX_INDEXED_VALUE && !d.includes('\0')) return [kind, pubkey, d];
  return [kind, pubkey, createHash('sha256').update(d).digest('hex'), 0];
}

/** The coordinate an event replaces under, or null for regular events. */
export function eventCoordinate(event: NostrEvent): Key | null {
  const kindOf = kindClass(event.kind);
  if (kindOf === 'replaceable') return coordinateKey(event.kind, event.pubkey, '');
  if (kindOf === 'addressable') return coordinateKey(event.kind, event.pubkey, tagValue(event, 'd') ?? '');
  return null;
}

function indexEntries(dbs: StoreDbs, event: NostrEvent): Array<[Database<Buffer, Key>, Key]> {
  const { id, pubkey, kind, created_at: at } = event;
  const entries: Array<[Database<Buffer, Key>, Key]> = [
    [dbs.byTime, [at, id]],
    [dbs.byKind, [kind, at, id]],
    [dbs.byAuthor, [pubkey, at, id]],
    [dbs.byAuthorKind, [pubkey, kind, at, id]],
  ];
  const seen = new Set<string>();
  for (const [name, value] of event.tags) {
    if (name === undefined || value === undefined || !INDEXED_TAGS.has(name)) continue;
    const normalized = indexValue(value);
    if (seen.has(`${name}:${normalized}`)) continue;
    seen.add(`${name}:${normalized}`);
    entries.push([dbs.byTag, [name, normalized, at, id]]);
  }
  const expiration = expirationOf(event);
  if (expiration !== null) entries.push([dbs.byExpiration, [expiration, id]]);
  return entries;
}

const EMPTY = Buffer.alloc(0);

/** Writes the event's index entries and coordinate; run inside the write transaction, after the event record. */
export function writeIndexes(dbs: StoreDbs, event: NostrEvent): void {
  for (const [db, key] of indexEntries(dbs, event)) void db.put(key, EMPTY);
  const coordinate = eventCoordinate(event);
  if (coordinate) void dbs.coordinates.put(coordinate, event.id);
}

/** Removes a stored event, its index entries and its coordinate; run inside a write transaction. */
export function removeEvent(dbs: StoreDbs, event: NostrEvent): void {
  void dbs.events.remove(event.id);
  for (const [db, key] of indexEntries(dbs, event)) void db.remove(key);
  const coordinate = eventCoordinate(event);
  if (coordinate && dbs.coordinates.get(coordinate) === event.id) void dbs.coordinates.remove(coordinate);
  addToCount(dbs, -1);
}

export function storedCount(dbs: StoreDbs): number {
  return dbs.meta.get('count') ?? 0;
}

/** The counter lives in LMDB and moves in the same transaction as the events, so opening never counts. */
export function addToCount(dbs: StoreDbs, delta: number): void {
  void dbs.meta.put('count', storedCount(dbs) + delta);
}
