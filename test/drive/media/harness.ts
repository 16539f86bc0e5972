import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { startDriveGateway } from '../../../src/drive/plugin.js';
import type { Gateway } from '../../../src/drive/store/gateway.js';
import { buildTestApp, type TestApp } from '../../helpers/app.js';
import { postForm, type FormPart } from '../../helpers/multipart.js';
import type { TestKey } from '../../helpers/nostr.js';

export interface MediaStation {
  t: TestApp;
  gateway: Gateway;
  close(): Promise<void>;
}

/** The app on temp directories and the embedded gateway on a free loopback port (as `npm start` runs it). */
export async function mediaStation(env: Record<string, string> = {}): Promise<MediaStation> {
  const t = await buildTestApp({
    env: {
      IPFS_GATEWAY: 'http://127.0.0.1:0',
      UPLOAD_MAX_CONCURRENT: '20',
      UPLOAD_MAX_PER_MINUTE: '1000',
      ...env,
    },
  });
  const gateway = await startDriveGateway(t.config, t.app.contentStore, pino({ level: 'silent' }));
  if (!gateway) throw new Error('the embedded gateway did not start');
  return {
    t,
    gateway,
    close: async () => {
      await gateway.close();
      await t.close();
    },
  };
}

/** `POST /api/fileupload` signed with NIP-98, `npub` first; `fields` are sent after the file. */
export async function fileUpload(
  t: TestApp,
  who: TestKey,
  name: string,
  content: Buffer | string,
  fields: Record<string, string> = {},
) {
  const parts: FormPart[] = [
    { name: 'npub', value: who.npub },
    { name: 'file', value: content, filename: name },
    ...Object.entries(fields).map(([field, value]) => ({ name: field, value })),
  ];
  return postForm(t, '/api/fileupload', parts, who);
}

export const bytesOf = (path: string) => readFile(path);

/** GET through the gateway: status, content type and body. */
export async function fetched(url: string) {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}
