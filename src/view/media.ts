import type { NostrEvent } from 'nostr-tools';

const HEX64 = /^[0-9a-f]{64}$/;
const MAX_FOLLOWS = 10_000;
const MAX_PLAYLIST_ITEMS = 1_000;

export interface Follows {
  pubkey: string;
  event_id: string;
  created_at: number;
  follows: string[];
}

export interface Video {
  id: string;
  kind: 21 | 22;
  pubkey: string;
  created_at: number;
  published_at: number | null;
  title: string | null;
  summary: string | null;
  url: string;
  mime: string | null;
  thumbnail: string | null;
  duration: number | null;
  hashtags: string[];
}

export interface PlaylistItem {
  type: 'e' | 'a' | 'r';
  value: string;
  relay: string | null;
}

export interface Playlist {
  pubkey: string;
  event_id: string;
  created_at: number;
  title: string | null;
  items: PlaylistItem[];
}

function tagValue(event: NostrEvent, name: string): string | null {
  const value = event.tags.find((tag) => tag[0] === name)?.[1]?.trim();
  return value ? value : null;
}

function clip(value: string | null, max: number): string | null {
  return value === null ? null : value.slice(0, max);
}

function isHttpUrl(value: string | null | undefined): value is string {
  return !!value && /^https?:\/\/\S+$/i.test(value) && value.length <= 2_048;
}

/** Kind 3: the followed keys (valid `p` tags, de-duplicated, bounded). */
export function parseFollows(event: NostrEvent): Follows | null {
  if (event.kind !== 3) return null;
  const follows = new Set<string>();
  for (const tag of event.tags) {
    const value = tag[0] === 'p' ? tag[1]?.toLowerCase() : undefined;
    if (value && HEX64.test(value)) follows.add(value);
    if (follows.size >= MAX_FOLLOWS) break;
  }
  return { pubkey: event.pubkey, event_id: event.id, created_at: event.created_at, follows: [...follows] };
}

/** The `key value` entries of NIP-92 `imeta` tags, first value per key. */
function imeta(event: NostrEvent): Map<string, string> {
  const entries = new Map<string, string>();
  for (const tag of event.tags) {
    if (tag[0] !== 'imeta') continue;
    for (const item of tag.slice(1)) {
      const space = item.indexOf(' ');
      if (space > 0 && !entries.has(item.slice(0, space)))
        entries.set(item.slice(0, space), item.slice(space + 1));
    }
  }
  return entries;
}

function positiveNumber(value: string | null | undefined): number | null {
  if (!value || !/^\d+(\.\d+)?$/.test(value)) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Kinds 21/22 (NIP-71, with the older `url` tag form); null when no http(s) video URL can be found. */
export function parseVideo(event: NostrEvent): Video | null {
  if (event.kind !== 21 && event.kind !== 22) return null;
  const meta = imeta(event);
  const url = [meta.get('url'), tagValue(event, 'url')].find(isHttpUrl);
  if (!url) return null;
  const thumbnail = [meta.get('image'), tagValue(event, 'thumb'), tagValue(event, 'image')].find(isHttpUrl);
  return {
    id: event.id,
    kind: event.kind,
    pubkey: event.pubkey,
    created_at: event.created_at,
    published_at: positiveNumber(tagValue(event, 'published_at')),
    title: clip(tagValue(event, 'title'), 300),
    summary: clip(event.content.trim() || null, 2_000),
    url,
    mime: clip(meta.get('m') ?? tagValue(event, 'm'), 100),
    thumbnail: thumbnail ?? null,
    duration: positiveNumber(meta.get('duration') ?? tagValue(event, 'duration')),
    hashtags: event.tags
      .filter((tag) => tag[0] === 't' && tag[1])
      .map((tag) => tag[1]!.slice(0, 64))
      .slice(0, 20),
  };
}

/** Kind 10001 (NIP-51 list): referenced events (`e`), addressable items (`a`) and URLs (`r`), in order. */
export function parsePlaylist(event: NostrEvent): Playlist | null {
  if (event.kind !== 10001) return null;
  const items: PlaylistItem[] = [];
  for (const tag of event.tags) {
    const [type, value, relay] = tag;
    if (!value || items.length >= MAX_PLAYLIST_ITEMS) continue;
    const valid =
      (type === 'e' && HEX64.test(value)) ||
      (type === 'a' && /^\d+:[0-9a-f]{64}:/.test(value)) ||
      (type === 'r' && isHttpUrl(value));
    if (valid) items.push({ type: type as PlaylistItem['type'], value, relay: relay?.trim() || null });
  }
  return {
    pubkey: event.pubkey,
    event_id: event.id,
    created_at: event.created_at,
    title: clip(tagValue(event, 'title') ?? tagValue(event, 'name'), 300),
    items,
  };
}
