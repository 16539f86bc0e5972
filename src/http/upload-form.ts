import type { FastifyRequest } from 'fastify';
import { sizeRefusal, type SizeLimit } from '../fs/head-bytes.js';
import type { StagedFile, StagingArea } from '../fs/staging.js';
import type { AuthContext } from '../auth/types.js';
import type { UserRecord } from '../identity/user-files.js';
import { InvalidInput, Forbidden, TooLarge, Unauthenticated } from '../errors.js';
import type { UploadLimits } from './upload-gate.js';
import { refuseAnnouncedOversize, type AnnouncedLimit } from './announced-length.js';

export interface UploadedFile extends StagedFile {
  /** As the client named it; sanitised where it is placed. */
  fileName: string;
  mimeType: string;
}

export interface UploadForm {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

export interface UploadFormOptions {
  staging: Pick<StagingArea, 'receive' | 'discard'>;
  /** Checked while the file streams, and when the station-wide multipart limit cuts it short. */
  limits: readonly SizeLimit[];
  /**
   * Called when the file part starts, with the fields sent before it: what throws here refuses the upload
   * before a byte of the file is staged (e.g. `request.precheckOwner`, which needs no body).
   */
  beforeFile?: (fieldsSoFar: Readonly<Record<string, string>>) => Promise<void>;
}

/**
 * Reads a multipart upload (one file in the field `file`, plus fields such as `npub`) before its sender is
 * authenticated: a NIP-98 `payload` tag covers the whole body, so authentication waits for its end. The file
 * streams to the staging area (never whole in memory); on any error nothing staged is left behind.
 */
export async function receiveUploadForm(
  request: FastifyRequest,
  { staging, limits, beforeFile }: UploadFormOptions,
): Promise<UploadForm> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
      } else if (part.fieldname !== 'file' || file) {
        part.file.resume();
        throw new InvalidInput('UNEXPECTED_FILE', {
          en: 'Send exactly one file, in the form field "file".',
          fr: 'Envoyez exactement un fichier, dans le champ de formulaire « file ».',
        });
      } else {
        await beforeFile?.({ ...fields }).catch((error: unknown) => {
          part.file.resume();
          throw error;
        });
        const staged = await staging.receive(part.file, limits);
        file = { ...staged, fileName: part.filename ?? '', mimeType: part.mimetype };
        // The multipart size limit (app.ts) ends the stream early instead of failing it: the file is at
        // least one byte longer than what arrived.
        if (part.file.truncated) throw sizeRefusal(limits, file.size + 1, file.head) ?? tooLarge();
      }
    }
  } catch (error) {
    if (file) await staging.discard(file);
    throw error;
  }
  return { fields, file };
}

function tooLarge(): TooLarge {
  return new TooLarge('FILE_TOO_LARGE', {
    en: 'The file is larger than this station accepts.',
    fr: 'Le fichier est plus gros que ce que cette station accepte.',
  });
}

export interface OwnedUpload {
  file: UploadedFile;
  fields: Record<string, string>;
  owner: { auth: AuthContext; user: UserRecord };
  /** Removes what is left in staging and frees the upload slots; call it in a `finally`. */
  finish(): Promise<void>;
}

const ownerUnknown = () =>
  new Unauthenticated('AUTH_REQUIRED', {
    en: 'Uploads need their owner before the file: send an Authorization: Nostr header, or the npub field before the file part (after it only from an address logged in on the relay).',
    fr: 'Un envoi doit connaître son propriétaire avant le fichier : envoyez un en-tête Authorization: Nostr, ou le champ npub avant la partie du fichier (après, seulement depuis une adresse connectée sur le relais).',
  });

const npubMissing = () =>
  new Unauthenticated('AUTH_REQUIRED', {
    en: 'This upload sent its file before naming its owner: send the npub field, one of the keys logged in on the relay from this address. Nothing was kept.',
    fr: 'Cet envoi a transmis son fichier sans nommer son propriétaire : envoyez le champ npub, une des clés connectées sur le relais depuis cette adresse. Rien n’a été conservé.',
  });

/**
 * An upload by the owner of the target directory. When the file part starts, the client address takes an
 * upload slot, and the owner must already be known (the Authorization header, or an `npub` field sent before
 * the file) and pass `precheckOwner`, then takes a user slot: every staged upload counts against both limits.
 * The one exception (docs/auth-model.md, "Uploads that send the file first"): a header-less upload from an
 * address with a live relay login is staged on the address's slot alone, and its `npub` field must follow,
 * naming a key logged in from that address; without it, or with another key, it is refused and nothing
 * staged is left. Once the body has arrived, the owner is authenticated in full (NIP-98 payload included) and
 * must be the pre-checked key, when there was one.
 */
export async function receiveOwnedUpload(
  request: FastifyRequest,
  options: Omit<UploadFormOptions, 'beforeFile'> & {
    gate: Pick<UploadLimits, 'acquireAddress' | 'acquireUser'>;
    /** Only a header proof will do (NIP-96): no npub field, no relay-observed login. */
    requireProof?: boolean;
    /** A body announced larger than this is refused before it is read (announced-length.ts). */
    announced?: AnnouncedLimit;
  },
): Promise<OwnedUpload> {
  if (options.announced) await refuseAnnouncedOversize(request, options.announced, options.requireProof);
  const releases: (() => void)[] = [];
  const release = () => releases.splice(0).forEach((free) => free());
  // Written when the file part starts (a callback): an object, so that its reads below are not narrowed.
  const before: { key: string | null; ownerFollows: boolean } = { key: null, ownerFollows: false };
  const form = await receiveUploadForm(request, {
    ...options,
    beforeFile: async (fields) => {
      releases.push(options.gate.acquireAddress(request.ip));
      const named = { npub: fields.npub ?? null, requireProof: options.requireProof };
      before.key = await request.precheckOwner(named);
      if (before.key) releases.push(options.gate.acquireUser(before.key));
      else if (request.ownerMayFollowFile(named)) before.ownerFollows = true;
      else throw ownerUnknown();
    },
  }).catch((error: unknown) => {
    release();
    throw error;
  });
  const finish = async () => {
    release();
    if (form.file) await options.staging.discard(form.file);
  };
  try {
    if (!form.file)
      throw new InvalidInput('MISSING_FILE', {
        en: 'Send the file in the form field "file".',
        fr: 'Envoyez le fichier dans le champ de formulaire « file ».',
      });
    // Staged before its owner was named: the npub is required now, never guessed from the address.
    if (before.ownerFollows && !form.fields.npub) throw npubMissing();
    // The key checked before the file stands in for an npub the form sends late or not at all.
    const owner = await request.requireOwner({
      npub: form.fields.npub ?? before.key,
      requireProof: options.requireProof,
      fileDigest: form.file.sha256,
    });
    // An npub field repeated after the file must not move the upload to another key than the one checked.
    if (before.key !== null && owner.user.hex !== before.key) {
      throw new Forbidden('NPUB_MISMATCH', {
        en: 'The npub after the file is not the one before it.',
        fr: 'La npub après le fichier n’est pas celle d’avant.',
      });
    }
    if (before.ownerFollows) releases.push(options.gate.acquireUser(owner.user.hex));
    return { file: form.file, fields: form.fields, owner, finish };
  } catch (error) {
    await finish();
    throw error;
  }
}
