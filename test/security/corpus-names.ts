/**
 * Hostile names and paths: traversal in every spelling (plain, backslash, percent- and double-encoded, Unicode
 * look-alike dots and slashes, overlong UTF-8), absolute and Windows paths, device names, control characters,
 * option-like and hidden names, over-long names, and the station's own secret and bookkeeping files.
 * A name is text, or raw bytes for what no valid UTF-8 string can spell.
 */
export type HostileName = string | Buffer;

const bytes = (...values: number[]) => Buffer.from(values);

const TRAVERSAL = [
  '../x',
  '../../x',
  '../../../../../../../../etc/passwd',
  '..',
  '.',
  '...',
  '..\\x',
  '..\\..\\..\\windows\\win.ini',
  '..%2fx',
  '%2e%2e%2f',
  '%2e%2e%2fx',
  '%2e%2e/%2e%2e/x',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  '%2e%2e%5cx',
  '..%5c..%5cx',
  '%252e%252e%252fx',
  '%25252e%25252e%25252fx',
  '..%252fx',
  '%c0%ae%c0%ae%c0%afx',
  '%e0%80%ae%e0%80%ae/x',
  '....//x',
  '....//....//etc/passwd',
  '..../x',
  '.../x',
  '..;/x',
  '../\u0000x',
  '..%00/x',
  '.%2e/x',
  '%2e./x',
  'x/../../y',
  'a/b/../../../x',
  './../x',
  '/./../x',
];

const UNICODE = [
  '\u2024\u2024/x', // ․․ one-dot leaders
  '\u2025/x', // ‥ two-dot leader
  '\uff0e\uff0e\uff0fx', // ．．／ fullwidth
  '\uff0e\uff0e/x',
  '..\uff0fx',
  '\u2215etc\u2215passwd', // ∕ division slash
  '..\u2044x', // ⁄ fraction slash
  '\u00b7\u00b7/x',
  '..\u2216x', // ∖ set minus
  '\ufe52\ufe52/x', // small full stops
  'x\u202egpj.exe',
  'x\u200b/../y',
  '\ufeff../x',
  'e\u0301t\u0301e\u0301.txt',
];

const OVERLONG = [
  bytes(0xc0, 0xae, 0xc0, 0xae, 0x2f, 0x78), // overlong "../x"
  bytes(0xc0, 0xae, 0xc0, 0xae, 0xc0, 0xaf, 0x78),
  bytes(0xe0, 0x80, 0xae, 0xe0, 0x80, 0xae, 0x2f, 0x78),
  bytes(0xf0, 0x80, 0x80, 0xae, 0xf0, 0x80, 0x80, 0xae, 0x2f, 0x78),
  bytes(0x2e, 0x2e, 0xc1, 0x9c, 0x78), // overlong backslash
  bytes(0x78, 0xff, 0xfe, 0x2e, 0x74, 0x78, 0x74),
];

const ABSOLUTE = [
  '/etc/passwd',
  '/etc/shadow',
  '/root/.ssh/authorized_keys',
  '/proc/self/environ',
  '/dev/zero',
  '//server/share/x',
  'file:///etc/passwd',
  'C:',
  'C:x',
  'C:\\Windows\\win.ini',
  'C:/Windows/win.ini',
  'c:\\..\\x',
  '\\\\server\\share\\x',
  '\\\\?\\C:\\x',
  '\\\\.\\pipe\\x',
  '/',
  '//',
  '\\',
];

const DEVICES = ['CON', 'con.txt', 'NUL', 'PRN.jpg', 'AUX', 'COM1', 'LPT1.txt', 'CONIN$', 'nul.'];

const ODD = [
  '-rf',
  '--help',
  '-',
  '.hidden',
  '.secret.nostr',
  '.secret.dunikey',
  '.youtube.com.cookie',
  '.cookie.txt',
  '~',
  '~/x',
  '~root/.ssh/id_rsa',
  'x\ny',
  'x\r\nContent-Type: text/html',
  '\n',
  'x\ty',
  ' x ',
  '   ',
  '',
  'x\u0000.txt',
  'x%00.txt',
  '$(id)',
  '`id`',
  '${HOME}',
  '%HOME%',
  "'; rm -rf / #",
  '*',
  'x|y',
  '<x>.html',
  '"x"',
  'x:y',
  'link -> /etc/passwd',
  '../link',
  'x.lnk',
  'manifest.json',
  '.journal',
  '../manifest.json',
];

const STATION = [
  'APP/uDRIVE/../../.secret.nostr',
  'APP/uDRIVE/Images/../../../.secret.nostr',
  'APP/uDRIVE/../../../other@example.org/.secret.nostr',
  'Images/../../../.secret.nostr',
  'Documents/../../HEX',
  'Documents/../../../.secret.dunikey',
  'Images/..\\..\\..\\.secret.nostr',
  '../NPUB',
  '../../../corpus@example.org/.secret.nostr',
  '../.drive-staging/x',
  '../../ipfs-store/pins/x',
  'nostr/../../x',
  '/Images/a.jpg',
  './Images/a.jpg',
  'Images//a.jpg',
  'Images/./a.jpg',
  'Images/a.jpg/..',
  'Images\\a.jpg',
  'Images/',
];

const LONG = [
  'x'.repeat(300),
  `${'x'.repeat(300)}.jpg`,
  'é'.repeat(200),
  '😀'.repeat(100),
  `${'../'.repeat(120)}x`,
  `${'a/'.repeat(150)}x`,
  '.'.repeat(300),
];

export const HOSTILE_NAMES: HostileName[] = [
  ...TRAVERSAL,
  ...UNICODE,
  ...OVERLONG,
  ...ABSOLUTE,
  ...DEVICES,
  ...ODD,
  ...STATION,
  ...LONG,
];

/** Printable form of a name for failure messages. */
export function show(name: HostileName): string {
  const text = typeof name === 'string' ? name : `bytes(${name.toString('hex')})`;
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…(${text.length})` : text);
}

/** The name as UTF-8 bytes (raw bytes as they are). */
export const nameBytes = (name: HostileName): Buffer => (typeof name === 'string' ? Buffer.from(name) : name);
