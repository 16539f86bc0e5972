import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';

export interface MultipartBody {
  body: Blob;
  contentType: string;
  /** SHA-256 hex of exactly the bytes sent, for the NIP-98 `payload` tag. */
  sha256: string;
}

/** Quotes a name in Content-Disposition as browsers do (HTML spec): `"` and line breaks percent-encoded. */
function quoted(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * A multipart/form-data body built by hand: FormData hides its bytes, and a NIP-98 `payload` tag needs
 * their hash. The file is read once in chunks for the hash, then sent from the File itself (a Blob that
 * refers to it), so a large upload is never held whole in memory.
 */
export async function multipartBody(
  fields: Record<string, string>,
  file: File,
  fileField = 'file',
): Promise<MultipartBody> {
  const boundary = `----UPlanet${bytesToHex(randomBytes(12))}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(fileField)}"; filename="${quoted(file.name)}"\r\n` +
    `Content-Type: ${file.type || 'application/octet-stream'}\r\n\r\n`;
  const encoder = new TextEncoder();
  const before = encoder.encode(head);
  const after = encoder.encode(`\r\n--${boundary}--\r\n`);
  const hash = sha256.create();
  hash.update(before);
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    hash.update(value);
  }
  hash.update(after);
  return {
    body: new Blob([before, file, after]),
    contentType: `multipart/form-data; boundary=${boundary}`,
    sha256: bytesToHex(hash.digest()),
  };
}
