import type { Request } from 'autocannon';
import { finalizeEvent, generateSecretKey, getPublicKey, nip19 } from 'nostr-tools';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import WebSocket from 'ws';

useWebSocketImplementation(WebSocket);

export interface Scenario {
  name: string;
  connections?: number;
  /**
   * Sets up what the requests need (users, auth events) and returns the request list autocannon cycles, or
   * one list per user: connection i then sends user i's requests only (one client per user).
   */
  prepare(baseUrl: string): Promise<Request[] | { perUser: Request[][] }>;
}

export async function register(baseUrl: string, email: string): Promise<{ nsec: string; npub: string }> {
  const res = await fetch(`${baseUrl}/g1nostr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email }),
  });
  if (!res.ok) throw new Error(`registration failed: ${res.status}`);
  return (await res.json()) as { nsec: string; npub: string };
}

async function relayUrl(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/test-nostr?npub=${'0'.repeat(63)}1`);
  return ((await res.json()) as { relay_url: string }).relay_url;
}

/** Registers a user and publishes its kind 22242 event, so requests naming its npub are authenticated. */
async function authenticatedUser(baseUrl: string, email: string): Promise<{ npub: string }> {
  const user = await register(baseUrl, email);
  const sk = nip19.decode(user.nsec).data as Uint8Array;
  const url = await relayUrl(baseUrl);
  const challenge = (await (await fetch(`${baseUrl}/api/nip42/challenge?npub=${user.npub}`)).json()) as {
    challenge: string;
  };
  const relay = await Relay.connect(url);
  const tags = [
    ['relay', url],
    ['challenge', challenge.challenge],
  ];
  await relay.publish(
    finalizeEvent({ kind: 22242, created_at: Math.floor(Date.now() / 1000), tags, content: '' }, sk),
  );
  relay.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return user;
}

/**
 * A multipart upload whose file bytes differ at every request (a counter in their last 8 bytes): equal bytes
 * are the same content, which would measure the content store finding a block again, not storing one.
 */
function distinctUploads(npub: string, size: number): Request {
  const bytes = Buffer.alloc(size, 7);
  const { body, contentType } = multipart({ npub }, { name: 'bench.bin', bytes });
  const counterAt = body.lastIndexOf('\r\n--') - 8;
  return {
    method: 'POST',
    path: '/api/upload',
    headers: { 'content-type': contentType },
    // autocannon copies the body when it builds the request: one buffer serves every upload.
    setupRequest: (request) => {
      body.writeBigUInt64BE(BigInt(uploadNumber++), counterAt);
      return { ...request, body };
    },
  };
}
let uploadNumber = 0;

function multipart(fields: Record<string, string>, file: { name: string; bytes: Buffer }) {
  const boundary = '----station-bench';
  const head = Object.entries(fields)
    .map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    )
    .join('');
  const body = Buffer.concat([
    Buffer.from(
      `${head}--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'health',
    prepare: async () => [{ method: 'GET', path: '/health' }],
  },
  {
    name: 'test-nostr',
    prepare: async () => {
      const npub = nip19.npubEncode(getPublicKey(generateSecretKey()));
      return [{ method: 'GET', path: `/api/test-nostr?npub=${npub}` }];
    },
  },
  {
    name: 'me-relay-auth',
    prepare: async (baseUrl) => {
      const user = await authenticatedUser(baseUrl, `bench-me-${Date.now()}@example.org`);
      return [{ method: 'GET', path: `/api/me?npub=${user.npub}` }];
    },
  },
  {
    name: 'check-balance',
    prepare: async () => [
      { method: 'GET', path: '/check_balance?g1pub=g1LBF94vApBWxJExucfEQyTRkAN1eFEnD5EFA2ZN8J1PpcdZ5' },
    ],
  },
  {
    name: 'check-revenue-html',
    prepare: async () => [{ method: 'GET', path: '/check_revenue?html=1' }],
  },
  {
    name: 'system-json',
    prepare: async (baseUrl) => {
      for (let i = 0; i < 30; i++) {
        await fetch(`${baseUrl}/g1nostr`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `geo-${i}@example.org`, lat: 43.6 + i / 100, lon: 1.44 }),
        });
      }
      return [{ method: 'GET', path: '/?lat=43.6&lon=1.44&deg=1' }];
    },
  },
  {
    // One user's drive, 50 uploads at once (issue 16's workload): what the drive's group commits are for.
    name: 'upload-64KiB',
    connections: 50,
    prepare: async (baseUrl) => {
      const user = await authenticatedUser(baseUrl, `bench-drive-${Date.now()}@example.org`);
      return [distinctUploads(user.npub, 64 * 1024)];
    },
  },
  {
    // 50 users, one client each uploading one file after another: every upload is a publication of its drive.
    name: 'upload-64KiB-50users',
    connections: 50,
    prepare: async (baseUrl) => {
      const users = [];
      for (let i = 0; i < 50; i++)
        users.push(await authenticatedUser(baseUrl, `bench-drives-${Date.now()}-${i}@example.org`));
      return { perUser: users.map((user) => [distinctUploads(user.npub, 64 * 1024)]) };
    },
  },
  {
    // Cookie intake: a 4 KB Netscape file replacing the user's youtube.com cookies each time.
    name: 'cookie-4KB',
    prepare: async (baseUrl) => {
      const user = await authenticatedUser(baseUrl, `bench-cookie-${Date.now()}@example.org`);
      const line = (i: number) => `.youtube.com\tTRUE\t/\tTRUE\t2000000000\tcookie${i}\t${'v'.repeat(60)}\n`;
      const text = `# Netscape HTTP Cookie File\n${Array.from({ length: 48 }, (_, i) => line(i)).join('')}`;
      const { body, contentType } = multipart(
        { npub: user.npub },
        { name: 'cookies.txt', bytes: Buffer.from(text) },
      );
      return [{ method: 'POST', path: '/api/fileupload', headers: { 'content-type': contentType }, body }];
    },
  },
];
