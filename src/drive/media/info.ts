import type { MediaKind } from './input.js';
import type { MediaProbe } from './probe.js';

/** What the drive knows of an uploaded file, whatever its type. */
export interface FileFacts {
  name: string;
  size: number;
  mimeType: string;
  sha256: string;
  /** `image`, `video`, `audio` or `document` (the answer's `file_type`). */
  fileType: string;
  fileCid: string;
  /** The `ipfs add -w` directory holding the file under its name. */
  wrapperCid: string;
  /** Hex key of the uploader, as UPlanet's info documents name it. */
  uploader: string;
}

/** What ffprobe and ffmpeg made of it; every part may be missing. */
export interface MediaFacts {
  kind: MediaKind | null;
  probe: MediaProbe | null;
  thumbnail: string | null;
  gifanim: string | null;
}

/**
 * The version of UPlanet's file contract whose reading rules these documents follow: its readers look for
 * `media.thumbnails.{static,animated}` from 2.x on, and `file.hash`, `media.duration`, `metadata.description`.
 */
const CONTRACT_VERSION = '2.1.0';

export function dimensionsOf(probe: MediaProbe | null): string | null {
  return probe?.width && probe.height ? `${probe.width}x${probe.height}` : null;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** A one-line description of what the file is, when the station could tell. */
export function describeMedia(kind: MediaKind | null, probe: MediaProbe | null): string | null {
  if (!kind || !probe) return null;
  const label = { image: 'Image', video: 'Video', audio: 'Audio' }[kind];
  const parts = [label];
  if (probe.duration !== null) parts.push(`${Number(probe.duration.toFixed(1))} s`);
  const dimensions = dimensionsOf(probe);
  if (dimensions) parts.push(dimensions);
  const codecs = [...probe.videoCodecs, ...probe.audioCodecs];
  if (kind !== 'image' && codecs.length > 0) parts.push(codecs.join('/'));
  return parts.join(', ');
}

function mediaSection(kind: 'video' | 'audio', probe: MediaProbe | null, media: MediaFacts) {
  const section: Record<string, unknown> = { type: kind };
  if (probe?.duration != null) section.duration = Math.round(probe.duration * 1000) / 1000;
  if (probe?.width && probe.height) {
    const d = gcd(probe.width, probe.height);
    const aspectRatio = `${probe.width / d}:${probe.height / d}`;
    section.dimensions = { width: probe.width, height: probe.height, aspectRatio };
  }
  const codecs: Record<string, string> = {};
  if (probe?.videoCodecs.length) codecs.video = probe.videoCodecs.join(', ');
  if (probe?.audioCodecs.length) codecs.audio = probe.audioCodecs.join(', ');
  if (Object.keys(codecs).length > 0) section.codecs = codecs;
  const thumbnails: Record<string, string> = {};
  if (media.thumbnail) thumbnails.static = media.thumbnail;
  if (media.gifanim) thumbnails.animated = media.gifanim;
  if (Object.keys(thumbnails).length > 0) section.thumbnails = thumbnails;
  return section;
}

/** The info document of an upload (the answer's `info` is its CID): sections only for what is known. */
export function infoDocument(file: FileFacts, media: MediaFacts, description: string | null) {
  const doc: Record<string, unknown> = {
    protocol: { name: 'UPlanet file contract', version: CONTRACT_VERSION },
    file: { name: file.name, size: file.size, type: file.mimeType, hash: file.sha256, sha256: file.sha256 },
    ipfs: {
      cid: file.wrapperCid,
      cidirect: file.fileCid,
      url: `/ipfs/${file.wrapperCid}/${encodeURIComponent(file.name)}`,
    },
    metadata: { type: file.fileType, ...(description ? { description } : {}) },
    provenance: { uploader: file.uploader },
  };
  const dimensions = dimensionsOf(media.probe);
  if (media.kind === 'image' && (dimensions || media.thumbnail))
    doc.image = {
      ...(dimensions ? { dimensions } : {}),
      ...(media.thumbnail ? { thumbnail: media.thumbnail } : {}),
    };
  if (media.kind === 'video' || media.kind === 'audio')
    doc.media = mediaSection(media.kind, media.probe, media);
  return doc;
}

/** Sorted keys, no spaces: the same facts always give the same bytes, hence the same CID. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
