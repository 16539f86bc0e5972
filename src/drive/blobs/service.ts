import { extension } from 'mime-types';
import type { StagedFile } from '../../fs/staging.js';
import { InvalidInput, NotFound } from '../../errors.js';
import type { UserRecord } from '../../identity/user-files.js';
import { looksLikeNetscapeCookies } from '../../cookies/netscape.js';
import { fileMetadataTags, type FileMetadata } from '../../nostr/nip94.js';
import type { DriveLinks } from '../links.js';
import type { Provenance } from '../manifest.js';
import type { DriveFileResult, DriveService } from '../service.js';
import { sniffContentType } from '../store/content-type.js';
import { ownedBlob, type DriveReads, type OwnedBlob } from '../db/reads.js';

export type { OwnedBlob };

/** BUD-02's blob descriptor, with BUD-08's `nip94` tags and the IPFS facts of the drive file. */
export interface BlobDescriptor {
  url: string;
  sha256: string;
  size: number;
  type: string;
  uploaded: number;
  nip94: string[][];
  cid: string;
  /** The file through the station's IPFS gateway. */
  ipfs: string;
}

export interface KeptBlob {
  blob: OwnedBlob;
  /** False when the uploader's drive already held these bytes (BUD-02's 200 instead of 201). */
  created: boolean;
  result: DriveFileResult;
}

export interface BlobServiceDeps {
  drive: Pick<DriveService, 'stageFor' | 'commit' | 'delete' | 'staging' | 'quotaBytes'>;
  /** The drive index: its `holders` are the blob index (db/drive-db.ts). */
  index: Pick<DriveReads, 'findBlob' | 'heldBy' | 'owned'>;
  links: () => DriveLinks;
}

const TYPE_PATTERN = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/i;

/** The bare MIME type of a Content-Type header, or null when there is none worth keeping. */
export function mediaTypeOf(header: string | undefined | null): string | null {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type && TYPE_PATTERN.test(type) && type !== 'application/x-www-form-urlencoded' ? type : null;
}

/**
 * Blobs are drive files seen by their SHA-256 (Blossom and NIP-96): uploading puts a file in the uploader's
 * drive (one file per SHA-256: the same bytes twice are the same file), deleting takes it out of the
 * caller's drive only, and the bytes are found by hash whoever uploaded them and whatever they named them.
 */
/** The API and gateway a blob's URLs are written with. */
type ClientLinks = Pick<DriveLinks, 'api' | 'gateway'>;

export class BlobService {
  constructor(private readonly deps: BlobServiceDeps) {}

  /** Where the station's API and gateway are, as published drives name them. */
  links(): DriveLinks {
    return this.deps.links();
  }

  find(sha256: string): OwnedBlob | undefined {
    return this.deps.index.findBlob(sha256);
  }

  heldBy(pubkey: string, sha256: string): OwnedBlob | undefined {
    return this.deps.index.heldBy(pubkey, sha256);
  }

  owned(pubkey: string): OwnedBlob[] {
    return this.deps.index.owned(pubkey);
  }

  /**
   * `<api>/<sha256>.<ext>`: BUD-02 wants an extension in the URL, for clients that judge by it. `links`: the
   * API and gateway as the client reaches them (src/http/public-urls.ts), else as published drives name them.
   */
  urlOf(sha256: string, type: string, links: ClientLinks = this.deps.links()): string {
    // BUD-02: the url ends with the blob's extension; a type with none (octet-stream included) is `.bin`.
    return `${links.api}/${sha256}.${extension(type) || 'bin'}`;
  }

  metadata(
    blob: OwnedBlob,
    extra: Pick<FileMetadata, 'dim' | 'alt'> = {},
    links: ClientLinks = this.deps.links(),
  ): FileMetadata {
    const fallback = `${links.gateway}/ipfs/${blob.link}`;
    return {
      url: this.urlOf(blob.sha256, blob.type, links),
      type: blob.type,
      sha256: blob.sha256,
      size: blob.size,
      cid: blob.cid,
      fallback,
      ...extra,
    };
  }

  descriptor(blob: OwnedBlob, links: ClientLinks = this.deps.links()): BlobDescriptor {
    const metadata = this.metadata(blob, {}, links);
    return {
      url: metadata.url,
      sha256: blob.sha256,
      size: blob.size,
      type: blob.type,
      uploaded: blob.uploaded,
      nip94: fileMetadataTags(metadata),
      cid: blob.cid,
      ipfs: metadata.fallback!,
    };
  }

  /** Streams a blob into staging for `user`, bounded by their quota and by `maxBytes`. */
  receive(user: UserRecord, content: AsyncIterable<Uint8Array>): Promise<StagedFile> {
    return this.deps.drive.stageFor(user, content);
  }

  discard(staged: StagedFile): Promise<void> {
    return this.deps.drive.staging.discard(staged);
  }

  /**
   * Puts a staged blob in the user's drive (consuming it). Named by the client (NIP-96's file name) or after
   * its hash and type; a cookie file is refused: the public drive never takes one.
   */
  async keep(
    user: UserRecord,
    staged: StagedFile,
    options: { name?: string | null; type?: string | null; source: Provenance },
  ): Promise<KeptBlob> {
    if (looksLikeNetscapeCookies(staged.head)) {
      await this.discard(staged);
      throw new InvalidInput('COOKIE_FILE', {
        en: 'This is a cookie file: it never goes to the public drive.',
        fr: 'C’est un fichier de cookies : il ne va jamais dans le uDRIVE public.',
      });
    }
    const type = options.type ?? sniffContentType(staged.head);
    const ext = extension(type) || 'bin';
    const fileName = options.name?.trim() || `${staged.sha256.slice(0, 16)}.${ext}`;
    const result = await this.deps.drive.commit(user, staged, {
      fileName,
      source: options.source,
      reuseSameContent: true,
    });
    const blob =
      this.deps.index.heldBy(user.hex, result.entry.sha256) ?? ownedBlob({ ...result.entry, seq: 0 });
    return { blob, created: result.existing !== true, result };
  }

  /** Takes the blob out of this user's drive; other users' copies stay. */
  async remove(user: UserRecord, sha256: string): Promise<OwnedBlob> {
    const held = this.deps.index.heldBy(user.hex, sha256);
    if (!held)
      throw new NotFound('BLOB_NOT_FOUND', {
        en: 'Your drive holds no blob with this SHA-256.',
        fr: 'Votre uDRIVE ne contient aucun blob de ce SHA-256.',
      });
    await this.deps.drive.delete(user, held.path);
    return held;
  }
}
