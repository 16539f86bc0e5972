// Writes to a drive through the station API, each request signed for itself (NIP-98, body hash included).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type { Static } from 'typebox';
import type { CopyBody, DeleteBody, UploadBody } from '../../../src/drive/schemas.js';
import { fetchJson, sendWithProgress } from '../lib/http.js';
import { multipartBody } from '../lib/multipart.js';
import { nip98Authorization } from '../lib/nip98.js';
import type { Signer } from '../lib/signer.js';

export type UploadAnswer = Static<typeof UploadBody>;
export type DeleteAnswer = Static<typeof DeleteBody>;
export type CopyAnswer = Static<typeof CopyBody>;

/** `api`: the station's base URL, no trailing slash. The answer's `new_cid` is the signer's drive root. */
export async function uploadFile(
  api: string,
  signer: Signer,
  file: File,
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  const form = await multipartBody({ npub: signer.npub }, file);
  const url = `${api}/api/upload`;
  const authorization = await nip98Authorization(signer, url, 'POST', form.sha256);
  return sendWithProgress<UploadAnswer>(url, {
    method: 'POST',
    headers: { authorization, 'content-type': form.contentType, accept: 'application/json' },
    body: form.body,
    onProgress,
  });
}

async function postJson<T>(api: string, signer: Signer, path: string, body: object): Promise<T> {
  const text = JSON.stringify(body);
  const url = `${api}${path}`;
  const payload = bytesToHex(sha256(new TextEncoder().encode(text)));
  const authorization = await nip98Authorization(signer, url, 'POST', payload);
  return fetchJson<T>(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: text,
  });
}

export function deleteFile(api: string, signer: Signer, path: string): Promise<DeleteAnswer> {
  return postJson(api, signer, '/api/delete', { file_path: path, npub: signer.npub });
}

/** Copies a file of any drive (its `<cid>/<name>` link) into the signer's own drive. */
export function copyToMyDrive(api: string, signer: Signer, ipfsLink: string): Promise<CopyAnswer> {
  return postJson(api, signer, '/api/upload_from_drive', { ipfs_link: ipfsLink, npub: signer.npub });
}
