import { EventRepository, EventType, EventUtils, type Event, type Filter } from '@nostr-relay/common';

/**
 * Answer size when a REQ gives no limit. Public relays cap at a few hundred; this one serves the station's own
 * bot, whose back-fill after a restart (a day of events) must not be cut short.
 */
const DEFAULT_LIMIT = 10_000;

/**
 * In-memory event store for the embedded relay: keeps only the newest replaceable / addressable event,
 * indexes by id, kind and author so filters never scan every event, and evicts the oldest events when full.
 * `onStored` lets the relay persist what it keeps.
 */
export class MemoryEventRepository extends EventRepository {
  private readonly byId = new Map<string, Event>();
  private readonly byKind = new Map<number, Set<string>>();
  private readonly byAuthor = new Map<string, Set<string>>();
  private readonly replaceable = new Map<string, string>();

  constructor(
    private readonly maxEvents = 200_000,
    private readonly onStored?: (event: Event) => void,
  ) {
    super();
  }

  isSearchSupported(): boolean {
    return false;
  }

  get size(): number {
    return this.byId.size;
  }

  upsert(event: Event): { isDuplicate: boolean } {
    if (this.byId.has(event.id)) return { isDuplicate: true };
    const key = this.replaceKey(event);
    if (key) {
      const current = this.byId.get(this.replaceable.get(key) ?? '');
      const newer = !current || event.created_at > current.created_at;
      const tieWins = current && event.created_at === current.created_at && event.id < current.id;
      if (current && !newer && !tieWins) return { isDuplicate: true };
      if (current) this.remove(current);
      this.replaceable.set(key, event.id);
    }
    this.add(event);
    this.onStored?.(event);
    if (this.byId.size > this.maxEvents) this.evictOldest(Math.ceil(this.maxEvents / 10));
    return { isDuplicate: false };
  }

  /** Every kept event, unordered and unbounded (journal compaction), unlike `find`. */
  events(): IterableIterator<Event> {
    return this.byId.values();
  }

  find(filter: Filter): Event[] {
    const limit = Math.min(filter.limit ?? DEFAULT_LIMIT, DEFAULT_LIMIT * 5);
    const matches: Event[] = [];
    for (const id of this.candidates(filter)) {
      const event = this.byId.get(id);
      if (event && EventUtils.isMatchingFilter(event, filter)) matches.push(event);
    }
    return matches.sort((a, b) => b.created_at - a.created_at || a.id.localeCompare(b.id)).slice(0, limit);
  }

  override async deleteByDeletionRequest(request: Event): Promise<void> {
    const ids = request.tags.filter((tag) => tag[0] === 'e').map((tag) => tag[1]);
    for (const id of ids) {
      const event = id ? this.byId.get(id) : undefined;
      if (event && event.pubkey === request.pubkey) this.remove(event);
    }
  }

  async destroy(): Promise<void> {
    this.byId.clear();
    this.byKind.clear();
    this.byAuthor.clear();
    this.replaceable.clear();
  }

  private candidates(filter: Filter): Iterable<string> {
    if (filter.ids) return filter.ids;
    const sets: Set<string>[] = [];
    if (filter.kinds) sets.push(union(filter.kinds.map((kind) => this.byKind.get(kind))));
    if (filter.authors) sets.push(union(filter.authors.map((author) => this.byAuthor.get(author))));
    if (sets.length === 0) return this.byId.keys();
    return sets.reduce((smallest, set) => (set.size < smallest.size ? set : smallest));
  }

  private replaceKey(event: Event): string | null {
    const type = EventUtils.getType(event.kind);
    if (type === EventType.REPLACEABLE) return `${event.pubkey}:${event.kind}`;
    if (type === EventType.PARAMETERIZED_REPLACEABLE) {
      return `${event.pubkey}:${event.kind}:${EventUtils.extractDTagValue(event) ?? ''}`;
    }
    return null;
  }

  private add(event: Event): void {
    this.byId.set(event.id, event);
    index(this.byKind, event.kind, event.id);
    index(this.byAuthor, event.pubkey, event.id);
  }

  private remove(event: Event): void {
    this.byId.delete(event.id);
    this.byKind.get(event.kind)?.delete(event.id);
    this.byAuthor.get(event.pubkey)?.delete(event.id);
    const key = this.replaceKey(event);
    if (key && this.replaceable.get(key) === event.id) this.replaceable.delete(key);
  }

  private evictOldest(count: number): void {
    const oldest = [...this.byId.values()].sort((a, b) => a.created_at - b.created_at).slice(0, count);
    for (const event of oldest) this.remove(event);
  }
}

function index<K>(map: Map<K, Set<string>>, key: K, id: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(id);
}

function union(sets: (Set<string> | undefined)[]): Set<string> {
  const present = sets.filter((set): set is Set<string> => set !== undefined);
  if (present.length === 1) return present[0]!;
  const out = new Set<string>();
  for (const set of present) for (const id of set) out.add(id);
  return out;
}
