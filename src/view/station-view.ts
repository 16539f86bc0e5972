import { LRUCache } from 'lru-cache';
import type { NostrEvent } from 'nostr-tools';
import type { LatLon } from '../geo/coordinates.js';
import { GeoIndex, type GeoIndexLimits } from './geo-index.js';
import type { GeoMessage } from './schemas.js';
import { hasCoordinateTags, notePosition } from './geo.js';
import { parseFollows, parsePlaylist, parseVideo, type Follows, type Playlist, type Video } from './media.js';
import { approximateSize, parseProfile, supersedes, type Profile } from './profile.js';

/** What happened to one event offered to the view. */
export type ViewOutcome = 'applied' | 'stale' | 'duplicate' | 'ignored' | 'malformed';

export type ViewConcern = 'profiles' | 'follows' | 'videos' | 'playlists' | 'geo';

export interface ViewLimits {
  profiles: number;
  profileBytes: number;
  /** Authors whose follows / videos / playlists are kept (local users, so a few thousand at most). */
  authors: number;
  videosPerAuthor: number;
  geo: Partial<GeoIndexLimits>;
}

const DEFAULT_LIMITS: ViewLimits = {
  profiles: 20_000,
  profileBytes: 32 * 1024 * 1024,
  authors: 10_000,
  videosPerAuthor: 200,
  geo: {},
};

type Counts = Record<ViewOutcome, number>;

const zero = (): Counts => ({ applied: 0, stale: 0, duplicate: 0, ignored: 0, malformed: 0 });

/**
 * The station's current view of the relay, fed by the kind 0/1/3/21/22/10001 streams and read by the
 * read-only routes and the payment stream (wallets of remote authors). Replaceable kinds keep only their
 * newest event; every store is bounded (LRU), so a busy relay cannot grow the process without limit.
 * Events reach it already verified by the relay client.
 */
export class StationView {
  readonly counts: Record<ViewConcern, Counts> = {
    profiles: zero(),
    follows: zero(),
    videos: zero(),
    playlists: zero(),
    geo: zero(),
  };
  /** Events whose stream handler threw, per stream (filled by `startStreams`). */
  readonly errors: Record<string, number> = {};
  readonly geo: GeoIndex;
  private readonly profiles: LRUCache<string, Profile>;
  private readonly follows: LRUCache<string, Follows>;
  private readonly playlists: LRUCache<string, Playlist>;
  private readonly videos: LRUCache<string, Video[]>;
  private readonly limits: ViewLimits;

  constructor(limits: Partial<ViewLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.profiles = new LRUCache({
      max: this.limits.profiles,
      maxSize: this.limits.profileBytes,
      sizeCalculation: (profile) => approximateSize(profile),
    });
    this.follows = new LRUCache({ max: this.limits.authors });
    this.playlists = new LRUCache({ max: this.limits.authors });
    this.videos = new LRUCache({ max: this.limits.authors });
    this.geo = new GeoIndex(this.limits.geo);
  }

  profile(pubkey: string): Profile | null {
    return this.profiles.get(pubkey) ?? null;
  }

  walletOf(pubkey: string): string | null {
    return this.profiles.get(pubkey)?.g1pub ?? null;
  }

  followsOf(pubkey: string): Follows | null {
    return this.follows.get(pubkey) ?? null;
  }

  videosOf(pubkey: string): Video[] {
    return this.videos.get(pubkey) ?? [];
  }

  playlistOf(pubkey: string): Playlist | null {
    return this.playlists.get(pubkey) ?? null;
  }

  geoMessages(center: LatLon, deg: number, limit: number): GeoMessage[] {
    return this.geo.near(center, deg, limit);
  }

  sizes(): Record<ViewConcern, number> {
    let videos = 0;
    for (const list of this.videos.values()) videos += list.length;
    return {
      profiles: this.profiles.size,
      follows: this.follows.size,
      videos,
      playlists: this.playlists.size,
      geo: this.geo.size,
    };
  }

  putProfile(event: NostrEvent): ViewOutcome {
    const profile = parseProfile(event);
    if (!profile) return this.count('profiles', 'malformed');
    if (!supersedes(profile, this.profiles.peek(event.pubkey))) return this.count('profiles', 'stale');
    this.profiles.set(event.pubkey, profile);
    return this.count('profiles', 'applied');
  }

  putFollows(event: NostrEvent): ViewOutcome {
    const follows = parseFollows(event);
    if (!follows) return this.count('follows', 'malformed');
    if (!supersedes(follows, this.follows.peek(event.pubkey))) return this.count('follows', 'stale');
    this.follows.set(event.pubkey, follows);
    return this.count('follows', 'applied');
  }

  putPlaylist(event: NostrEvent): ViewOutcome {
    const playlist = parsePlaylist(event);
    if (!playlist) return this.count('playlists', 'malformed');
    if (!supersedes(playlist, this.playlists.peek(event.pubkey))) return this.count('playlists', 'stale');
    this.playlists.set(event.pubkey, playlist);
    return this.count('playlists', 'applied');
  }

  /** Videos are regular events: each is kept, newest first, up to the per-author bound. */
  putVideo(event: NostrEvent): ViewOutcome {
    const video = parseVideo(event);
    if (!video) return this.count('videos', 'malformed');
    const list = this.videos.get(event.pubkey) ?? [];
    if (list.some((other) => other.id === video.id)) return this.count('videos', 'duplicate');
    const at = list.findIndex((other) => other.created_at < video.created_at);
    list.splice(at === -1 ? list.length : at, 0, video);
    list.length = Math.min(list.length, this.limits.videosPerAuthor);
    this.videos.set(event.pubkey, list);
    return this.count('videos', 'applied');
  }

  /** Kind 1: only geo-tagged notes are kept; a note whose position tags cannot be read is malformed. */
  putNote(event: NostrEvent): ViewOutcome {
    if (event.kind !== 1) return this.count('geo', 'malformed');
    const position = notePosition(event);
    if (!position) return this.count('geo', hasCoordinateTags(event) ? 'malformed' : 'ignored');
    return this.count('geo', this.geo.add(event, position) ? 'applied' : 'duplicate');
  }

  /** Counts an outcome decided elsewhere (e.g. an author who is not local). */
  count(concern: ViewConcern, outcome: ViewOutcome): ViewOutcome {
    this.counts[concern][outcome]++;
    return outcome;
  }
}
