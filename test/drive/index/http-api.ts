import { nip19 } from 'nostr-tools';
import { multipart } from '../../helpers/multipart.js';
import { keyFromSecret, nip98Header, type TestKey } from '../../helpers/nostr.js';
import type { Answer, DriveApi } from './race-workload.js';

const answerOf = async (response: Response): Promise<Answer> => {
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, body: text };
  }
};

/** Registers a user at a running station (`POST /g1nostr`, as the scan page does): its key. */
export async function registerAt(base: string, email: string): Promise<TestKey> {
  const response = await fetch(`${base}/g1nostr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (response.status !== 200) throw new Error(`registration: ${response.status} ${await response.text()}`);
  const { nsec } = (await response.json()) as { nsec: string };
  return keyFromSecret(nip19.decode(nsec).data as Uint8Array);
}

/** A user's drive at a running station over HTTP; `base()` is asked at each request (a restart moves it). */
export function httpApi(base: () => string, key: TestKey): DriveApi {
  return {
    upload: async (name, bytes) => {
      const { body, contentType } = multipart([
        { name: 'npub', value: key.npub },
        { name: 'file', value: bytes, filename: name, type: 'application/octet-stream' },
      ]);
      const target = `${base()}/api/upload`;
      const authorization = nip98Header(key, target, 'POST', { body });
      return answerOf(
        await fetch(target, {
          method: 'POST',
          body,
          headers: { 'content-type': contentType, authorization },
        }),
      );
    },
    remove: async (path) => {
      const body = JSON.stringify({ file_path: path, npub: key.npub });
      const target = `${base()}/api/delete`;
      const authorization = nip98Header(key, target, 'POST', { body });
      return answerOf(
        await fetch(target, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', authorization },
        }),
      );
    },
    list: async () => answerOf(await fetch(`${base()}/api/drive?npub=${key.npub}`)),
  };
}
