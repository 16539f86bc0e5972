import type { Filter, NostrEvent } from 'nostr-tools';

export type { Filter };

export interface FilterLimits {
  /** Values per list (ids, authors, kinds, each `#x`): a filter costs one index range or lookup per value. */
  maxValues: number;
  /** Characters per tag-filter value. */
  maxTagValueLength: number;
}

export const DEFAULT_FILTER_LIMITS: FilterLimits = { maxValues: 1_000, maxTagValueLength: 1_024 };

const HEX64 = /^[0-9a-f]{64}$/;
const TAG_KEY = /^#[a-zA-Z]$/;

class Refusal {
  constructor(readonly reason: string) {}
}

function list<T>(
  value: unknown,
  field: string,
  limits: FilterLimits,
  item: (x: unknown) => x is T,
  what: string,
): T[] | Refusal {
  if (!Array.isArray(value)) return new Refusal(`${field} must be an array`);
  if (value.length > limits.maxValues)
    return new Refusal(`${field} has more than ${limits.maxValues} values`);
  if (!value.every(item)) return new Refusal(`${field} must hold only ${what}`);
  return [...new Set(value)];
}

const isHex64 = (x: unknown): x is string => typeof x === 'string' && HEX64.test(x);
const isKind = (x: unknown): x is number =>
  Number.isInteger(x) && (x as number) >= 0 && (x as number) <= 65_535;

/**
 * Checks a client's REQ filter (NIP-01) and returns a normalized copy (known fields only, duplicate values
 * dropped), or the reason it is refused. Ids and authors must be full lowercase 64-hex strings: prefix matching
 * would defeat the indexes.
 */
export function validateFilter(value: unknown, limits: Partial<FilterLimits> = {}): Filter | string {
  const bounds = { ...DEFAULT_FILTER_LIMITS, ...limits };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'a filter must be an object';
  const filter: Filter = {};
  for (const [key, raw] of Object.entries(value)) {
    let checked: unknown;
    if (key === 'ids' || key === 'authors') {
      checked = list(raw, key, bounds, isHex64, '64-character lowercase hex strings');
    } else if (key === 'kinds') {
      checked = list(raw, key, bounds, isKind, 'integers from 0 to 65535');
    } else if (TAG_KEY.test(key)) {
      const isValue = (x: unknown): x is string =>
        typeof x === 'string' && x.length <= bounds.maxTagValueLength;
      checked = list(raw, key, bounds, isValue, `strings of at most ${bounds.maxTagValueLength} characters`);
    } else if (key === 'since' || key === 'until') {
      checked = Number.isSafeInteger(raw) ? raw : new Refusal(`${key} must be an integer`);
    } else if (key === 'limit') {
      checked =
        Number.isSafeInteger(raw) && (raw as number) >= 0
          ? raw
          : new Refusal('limit must be a non-negative integer');
    } else {
      return `unsupported filter field: ${key.slice(0, 32)}`;
    }
    if (checked instanceof Refusal) return checked.reason;
    (filter as Record<string, unknown>)[key] = checked;
  }
  return filter;
}

/**
 * A predicate for one filter, with its lists turned into sets once: the store checks every index candidate
 * against the whole filter. Unlike nostr-tools' matchFilter, `since: 0` and `until: 0` are real bounds.
 */
export function compileFilter(filter: Filter): (event: NostrEvent) => boolean {
  const ids = filter.ids && new Set(filter.ids);
  const authors = filter.authors && new Set(filter.authors);
  const kinds = filter.kinds && new Set(filter.kinds);
  const tags: Array<[string, Set<string>]> = [];
  for (const [key, values] of Object.entries(filter)) {
    if (key.startsWith('#') && Array.isArray(values)) tags.push([key.slice(1), new Set(values as string[])]);
  }
  const { since, until } = filter;
  return (event) =>
    (!ids || ids.has(event.id)) &&
    (!authors || authors.has(event.pubkey)) &&
    (!kinds || kinds.has(event.kind)) &&
    (since === undefined || event.created_at >= since) &&
    (until === undefined || event.created_at <= until) &&
    tags.every(([name, values]) => event.tags.some((tag) => tag[0] === name && values.has(tag[1] as string)));
}

export function matchesFilter(event: NostrEvent, filter: Filter): boolean {
  return compileFilter(filter)(event);
}
