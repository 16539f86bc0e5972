import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { MediaConfig } from '../../config/media.js';
import { within } from '../../fs/paths.js';
import type { UserRecord } from '../../identity/user-files.js';
import type { DriveCategory } from '../categories.js';
import { BlockBatch } from '../db/block-batch.js';
import type { MediaRecord } from '../db/records.js';
import type { ManifestEntry } from '../manifest.js';
import type { DriveFileResult } from '../placement.js';
import type { DirectoryLink } from '../store/dag.js';
import type { AddResult, ContentStore } from '../store/types.js';
import { MediaError, MediaToolFailedError, MediaToolMissingError } from './errors.js';
import { canonicalJson, describeMedia, dimensionsOf, infoDocument, type MediaFacts } from './info.js';
import type { MediaKind } from './input.js';
import { probeMedia } from './probe.js';
import { renderGif, renderThumbnail } from './thumbnail.js';
import { Budget, MediaTools, type Tool } from './tools.js';
import { storeBundle, wrapperOf } from './wrap.js';

/** UPassport's media fields of an upload answer; null when unknown, unsupported or out of time. */
export interface MediaFields {
  info: string | null;
  thumbnail_ipfs: string | null;
  gifanim_ipfs: string | null;
  /** `<width>x<height>`. */
  dimensions: string | null;
  /** Whole seconds (UPassport's integer), videos and audio. */
  duration: number | null;
  description: string | null;
}

export interface MediaServiceDeps {
  config: MediaConfig;
  store: Pick<ContentStore, 'add' | 'putBlock'>;
  /** Temporary thumbnails and GIFs go here (the drive's private staging area, swept at start). */
  stagingDir: string;
  logger: Logger;
  /** Keeps the media of a file while it stays in the drive; false when it left meanwhile (DriveService). */
  attach(
    user: UserRecord,
    entry: Pick<ManifestEntry, 'path' | 'ipfs_link'>,
    record: MediaRecord,
    batch: BlockBatch,
  ): Promise<boolean>;
}

async function* once(bytes: Buffer): AsyncGenerator<Uint8Array> {
  yield bytes;
}

const KIND: Partial<Record<DriveCategory, MediaKind>> = { Images: 'image', Videos: 'video', Music: 'audio' };

/**
 * The media fields of `/api/fileupload`: probed and rendered after the file is in the drive and before the
 * answer, within one time budget per upload. The info document, thumbnail and GIF go to the content store
 * in one folder the drive index keeps with the file (db/commit.ts `commitMedia`), never into the drive's
 * folders or manifest.
 */
export class MediaService {
  private readonly tools: MediaTools;
  private readonly missing = new Set<string>();

  constructor(private readonly deps: MediaServiceDeps) {
    const { ffmpeg, ffprobe, concurrency } = deps.config;
    this.tools = new MediaTools({ ffmpeg, ffprobe }, concurrency);
  }

  /** Never throws: the file is already in the drive, and an answer without media fields still says so. */
  async describe(user: UserRecord, result: DriveFileResult, given?: string): Promise<MediaFields> {
    const { entry } = result;
    const kind = KIND[entry.category] ?? null;
    const budget = new Budget(this.deps.config.timeoutMs);
    const links: DirectoryLink[] = [];
    // Written with the record that keeps them, never before: nothing unkept ever reaches the store.
    const batch = new BlockBatch();
    const media: MediaFacts = { kind, probe: null, thumbnail: null, gifanim: null };
    try {
      if (kind) await this.analyse(within(result.targetDirectory, entry.name), media, links, budget, batch);
      const description = given ?? describeMedia(kind, media.probe);
      const file = {
        name: entry.name,
        size: entry.size,
        mimeType: entry.mime_type,
        sha256: entry.sha256,
        fileType: entry.file_type,
        fileCid: entry.cid,
        wrapperCid: wrapperOf(entry),
        uploader: user.hex,
      };
      const info = await this.add(Buffer.from(canonicalJson(infoDocument(file, media, description))), batch);
      links.push({ name: 'info.json', cid: info.cid, dagSize: info.dagSize });
      const bundle = await storeBundle(this.deps.store, links, batch);
      const record = {
        path: entry.path,
        bundle,
        info: info.cid,
        thumbnail: media.thumbnail,
        gifanim: media.gifanim,
      };
      // Deleted meanwhile: nothing is kept for it.
      await this.deps.attach(user, entry, record, batch);
      return {
        info: info.cid,
        thumbnail_ipfs: media.thumbnail,
        gifanim_ipfs: media.gifanim,
        dimensions: dimensionsOf(media.probe),
        duration: media.probe?.duration != null ? Math.trunc(media.probe.duration) : null,
        description,
      };
    } catch (error) {
      this.deps.logger.warn({ err: error, path: entry.path }, 'drive: media fields not stored');
      return {
        info: null,
        thumbnail_ipfs: null,
        gifanim_ipfs: null,
        dimensions: null,
        duration: null,
        description: given ?? null,
      };
    } finally {
      budget.dispose();
    }
  }

  /** Stops running ffmpeg / ffprobe processes (service shutdown). */
  close(): void {
    this.tools.close();
  }

  private async analyse(
    path: string,
    media: MediaFacts,
    links: DirectoryLink[],
    budget: Budget,
    batch: BlockBatch,
  ) {
    const kind = media.kind!;
    media.probe = await this.step('ffprobe', () => probeMedia(this.tools, path, kind, budget));
    if (!media.probe) return;
    const duration = media.probe.duration;
    if (kind !== 'audio') {
      const still = await this.step('ffmpeg', () =>
        this.rendered('jpg', batch, (out) =>
          renderThumbnail(this.tools, { path, kind, duration }, out, budget),
        ),
      );
      if (still) links.push({ name: 'thumbnail.jpg', cid: still.cid, dagSize: still.dagSize });
      media.thumbnail = still?.cid ?? null;
    }
    if (kind === 'video' && media.probe.videoCodecs.length > 0) {
      const gif = await this.step('ffmpeg', () =>
        this.rendered('gif', batch, (out) => renderGif(this.tools, { path, duration }, out, budget)),
      );
      if (gif) links.push({ name: 'animation.gif', cid: gif.cid, dagSize: gif.dagSize });
      media.gifanim = gif?.cid ?? null;
    }
  }

  /** Renders into a private temp file, stores it (into the batch kept with the folder), removes the temp. */
  private async rendered(
    extension: string,
    batch: BlockBatch,
    render: (output: string) => Promise<void>,
  ): Promise<AddResult> {
    await mkdir(this.deps.stagingDir, { recursive: true, mode: 0o700 });
    const output = join(this.deps.stagingDir, `.media-${randomBytes(9).toString('hex')}.${extension}`);
    try {
      await render(output);
      return await this.add(createReadStream(output), batch);
    } finally {
      await rm(output, { force: true });
    }
  }

  private add(content: AsyncIterable<Uint8Array> | Buffer, batch: BlockBatch): Promise<AddResult> {
    const source = Buffer.isBuffer(content) ? once(content) : content;
    return this.deps.store.add(source, { pin: false, into: batch });
  }

  /** One step's result, or null with a log line saying why: a media field is never worth a failed upload. */
  private async step<T>(tool: Tool, work: () => Promise<T>): Promise<T | null> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof MediaToolMissingError) {
        if (!this.missing.has(tool))
          this.deps.logger.warn({ tool: this.deps.config[tool] }, `${tool} not found: media fields are null`);
        this.missing.add(tool);
      } else if (error instanceof MediaError) {
        this.deps.logger.info({ code: error.code, tool }, 'drive: media step skipped');
        if (error instanceof MediaToolFailedError)
          this.deps.logger.debug({ tool, stderr: error.stderrTail }, 'drive: media tool output');
      } else throw error;
      return null;
    }
  }
}
