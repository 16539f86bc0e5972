import { multipartBody, type Member, type Part, type Station } from './corpus-station.js';
import { nameBytes, show, type HostileName } from './corpus-names.js';
import { jsonFragment, pct } from './corpus-values.js';
import type { WireRequest } from './corpus-wire.js';

/** One request of the traversal corpus, built when sent (NIP-98 events are single-use and dated). */
export interface Probe {
  entry: string;
  label: string;
  port: number;
  /** Who signs an upload: its file must land in this user's directory. */
  signer?: Member;
  build: () => WireRequest;
}

/**
 * The users uploads are signed by, spread by name: uploads of one drive are serialised by its lock, so
 * several small drives run in parallel (and every drive stays small).
 */
export type Uploaders = Member[];

/**
 * The name as it would be typed in a URL: only what cannot stand in a request target is percent-encoded
 * (controls, space, non-ASCII, `?`, `#`); `/`, `\`, `.` and `%` reach the server as they are.
 */
export function light(name: HostileName): string {
  let out = '';
  for (const byte of nameBytes(name)) {
    const char = String.fromCharCode(byte);
    out +=
      byte <= 0x20 || byte >= 0x7f || char === '?' || char === '#'
        ? `%${byte.toString(16).padStart(2, '0')}`
        : char;
  }
  return out;
}

const asJsonString = (name: HostileName) =>
  typeof name === 'string' ? Buffer.from(JSON.stringify(name)) : jsonFragment({ label: '', bytes: name });

/** Every place a name or path enters the station, for one hostile name. */
export function probesFor(s: Station, name: HostileName, who?: Uploaders): Probe[] {
  const pool = who?.length ? who : [s.member];
  const seed = [...nameBytes(name)].reduce((sum, byte) => sum + byte, name.length);
  const by = (variant: number) => pool[(seed + variant) % pool.length]!;
  const shown = show(name);
  const gateway = Number(new URL(s.gateway.url).port);
  const wrapper = s.driveFile.ipfsLink.split('/')[0]!;
  const probe = (entry: string, how: string, port: number, build: () => WireRequest): Probe => ({
    entry,
    label: `${entry} ${how} ${shown}`,
    port,
    build,
  });
  const upload = (entry: string, path: string, file: Omit<Part, 'name'>, signer: Member = s.member) => ({
    ...probe(entry, path, s.port, () => {
      const { body, contentType } = multipartBody([
        { name: 'npub', value: signer.npub },
        { name: 'file', ...file },
      ]);
      const headers: WireRequest['headers'] = [
        ['Content-Type', contentType],
        ['Authorization', s.auth('POST', path, body, signer)],
      ];
      return { label: entry, method: 'POST', target: path, headers, body };
    }),
    signer,
  });
  const postJson = (entry: string, path: string, fields: [string, Buffer][], signed: boolean) =>
    probe(entry, path, s.port, () => {
      const body = Buffer.concat([
        Buffer.from('{'),
        ...fields.flatMap(([k, v], i) => [Buffer.from(`${i ? ',' : ''}"${k}":`), v]),
        Buffer.from('}'),
      ]);
      const headers: WireRequest['headers'] = [['Content-Type', 'application/json']];
      if (signed) headers.push(['Authorization', s.auth('POST', path, body)]);
      return { label: entry, method: 'POST', target: path, headers, body };
    });
  const get = (entry: string, method: string, port: number, target: string, signed: boolean) =>
    probe(entry, `${method} ${target.slice(0, 40)}`, port, () => ({
      label: entry,
      method,
      target,
      headers: [
        ['Accept', 'application/json'],
        ...(signed ? [['Authorization', s.auth(method, target)]] : []),
      ] as WireRequest['headers'],
    }));
  const npub: [string, Buffer] = ['npub', Buffer.from(JSON.stringify(s.member.npub))];
  const link = (text: string) =>
    postJson(
      'ipfs_link',
      '/api/upload_from_drive',
      [['ipfs_link', Buffer.from(JSON.stringify(text))], npub],
      true,
    );
  const text = nameBytes(name).toString('utf8');
  const cookie = (host: Buffer) =>
    Buffer.concat([
      Buffer.from('# Netscape HTTP Cookie File\n'),
      host,
      Buffer.from('\tTRUE\t/\tFALSE\t0\tsid\tv\n'),
    ]);

  return [
    upload(
      'upload filename',
      '/api/upload',
      { filename: name, value: 'hostile\n', type: 'text/plain' },
      by(0),
    ),
    // RFC 5987 `filename*`, for the names a quoted `filename="…"` cannot carry as they are.
    ...(/["\r\n\0%\\]|[^\x20-\x7e]/.test(nameBytes(name).toString('latin1'))
      ? [
          upload(
            'upload filename*',
            '/api/upload',
            { filename: 'safe.txt', filenameStar: pct(nameBytes(name)), value: 'x\n' },
            by(1),
          ),
        ]
      : []),
    upload(
      'fileupload filename',
      '/api/fileupload',
      { filename: name, value: 'hostile\n', type: 'text/plain' },
      by(2),
    ),
    upload('cookie domain column', '/api/fileupload', {
      filename: 'cookies.txt',
      value: cookie(nameBytes(name)),
    }),
    upload('cookie domain column', '/api/fileupload', {
      filename: 'c.txt',
      value: cookie(Buffer.concat([Buffer.from('.'), nameBytes(name)])),
    }),
    postJson('file_path', '/api/delete', [['file_path', asJsonString(name)], npub], true),
    postJson(
      'file_path',
      '/api/delete',
      [['file_path', Buffer.from(JSON.stringify(`Images/${text}`))], npub],
      true,
    ),
    postJson(
      'file_path',
      '/api/delete',
      [['file_path', Buffer.from(JSON.stringify(`APP/uDRIVE/Documents/${text}`))], npub],
      true,
    ),
    postJson('ipfs_link', '/api/upload_from_drive', [['ipfs_link', asJsonString(name)], npub], true),
    link(`${wrapper}/${text}`),
    link(`/ipfs/${wrapper}/${light(name)}`),
    link(`http://127.0.0.1/ipfs/${wrapper}/${pct(nameBytes(name))}`),
    get('cookie domain', 'GET', s.port, `/cookie/${pct(nameBytes(name))}`, true),
    get('cookie domain', 'GET', s.port, `/cookie/${light(name)}`, true),
    get('cookie domain', 'DELETE', s.port, `/cookie/${pct(nameBytes(name))}`, true),
    get('cookie domain', 'DELETE', s.port, `/cookie/${light(name)}`, true),
    get('gateway path', 'GET', gateway, `/ipfs/${wrapper}/${pct(nameBytes(name))}`, false),
    get('gateway path', 'GET', gateway, `/ipfs/${wrapper}/${light(name)}`, false),
    get('gateway path', 'GET', gateway, `/ipfs/${light(name)}`, false),
    postJson('e-mail', '/g1nostr', [['email', asJsonString(name)]], false),
    postJson('e-mail', '/g1nostr', [['email', Buffer.from(JSON.stringify(`${text}@example.org`))]], false),
    postJson('e-mail', '/g1nostr', [['email', Buffer.from(JSON.stringify(`a@${text}.org`))]], false),
    get('static file', 'GET', s.port, `/assets/${light(name)}`, false),
    get('static file', 'GET', s.port, `/docs/static/${light(name)}`, false),
  ];
}
