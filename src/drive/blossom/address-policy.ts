/**
 * Which IP addresses a mirror fetch may connect to. Anything a station could reach that a stranger on the
 * Internet could not (loopback, LAN, cloud metadata, carrier NAT, …) is refused, so that asking the station to
 * mirror a URL never becomes a way to probe or read its private network. The addresses judged here are the
 * ones the socket is then given, so what was checked is what gets connected to.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { MirrorFetchFailedError, MirrorUrlRefusedError, reasonOf } from './errors.js';

export type Address = { address: string; family: number };
export type Lookup = (hostname: string) => Promise<Address[]>;

type Family = 'ipv4' | 'ipv6';

const RANGES: readonly (readonly [kind: string, family: Family, network: string, prefix: number])[] = [
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['shared (carrier-grade NAT)', 'ipv4', '100.64.0.0', 10],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['documentation', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '192.88.99.0', 24],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['benchmarking', 'ipv4', '198.18.0.0', 15],
  ['documentation', 'ipv4', '198.51.100.0', 24],
  ['documentation', 'ipv4', '203.0.113.0', 24],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  // Listed before 240/4 so the message names it for what it is.
  ['broadcast', 'ipv4', '255.255.255.255', 32],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  ['unique-local', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['site-local', 'ipv6', 'fec0::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
  ['NAT64 local-use', 'ipv6', '64:ff9b:1::', 48],
  // Teredo and other protocol anycast: tunnels whose far end the station cannot judge.
  ['reserved', 'ipv6', '2001::', 23],
  ['documentation', 'ipv6', '2001:db8::', 32],
  ['documentation', 'ipv6', '3fff::', 20],
];

/** The kinds of RANGES as a French sentence names them ("une adresse privée"). */
const FRENCH_KINDS: Readonly<Record<string, string>> = {
  unspecified: 'non spécifiée',
  private: 'privée',
  'shared (carrier-grade NAT)': 'partagée (NAT d’opérateur)',
  loopback: 'de bouclage',
  'link-local': 'locale au lien',
  reserved: 'réservée',
  documentation: 'de documentation',
  benchmarking: 'de banc d’essai',
  multicast: 'multicast',
  broadcast: 'de diffusion',
  'unique-local': 'locale unique',
  'site-local': 'locale au site',
  'NAT64 local-use': 'NAT64 d’usage local',
  invalid: 'invalide',
};

const RULES = RANGES.map(([kind, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { kind, family, list };
});

/** The eight 16-bit groups of an address `isIP` already accepted as IPv6. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/**
 * Why `address` is not public (e.g. 'loopback', 'private'), or null when it is. IPv6 forms that carry an IPv4
 * address the host would actually talk to (mapped, NAT64, 6to4) are judged by that IPv4 address, so they cannot
 * smuggle a private one through.
 */
export function nonPublicKind(input: string): string | null {
  const address = input.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const version = isIP(address);
  if (version === 4)
    return RULES.find((rule) => rule.family === 'ipv4' && rule.list.check(address, 'ipv4'))?.kind ?? null;
  if (version !== 6) return 'invalid';
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return nonPublicKind(ipv4Of(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return nonPublicKind(ipv4Of(g[6]!, g[7]!));
  if (g[0] === 0x2002) return nonPublicKind(ipv4Of(g[1]!, g[2]!));
  const canonical = g.map((group) => group.toString(16)).join(':');
  const kind = RULES.find((rule) => rule.family === 'ipv6' && rule.list.check(canonical, 'ipv6'))?.kind;
  // Only global unicast (2000::/3) is routed on the Internet; the rest of the space is reserved.
  return kind ?? ((g[0]! & 0xe000) === 0x2000 ? null : 'reserved');
}

export function isPublicAddress(address: string): boolean {
  return nonPublicKind(address) === null;
}

export const bareHost = (target: URL) => target.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The addresses `target` may be fetched from: its literal address or everything its name resolves to, all of
 * which must be public unless the operator trusts the origin. Refusing when any one is private matters because
 * the socket may try each of them in turn.
 */
export async function judge(target: URL, lookup: Lookup, trusted: ReadonlySet<string>): Promise<Address[]> {
  const host = bareHost(target);
  const literal = isIP(host) !== 0;
  let addresses: Address[];
  if (literal) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      const reason = reasonOf(error);
      throw new MirrorFetchFailedError(
        { en: `could not resolve ${host}: ${reason}`, fr: `impossible de résoudre ${host} : ${reason}` },
        error,
      );
    }
    if (addresses.length === 0)
      throw new MirrorFetchFailedError({ en: `${host} has no address`, fr: `${host} n’a aucune adresse` });
  }
  if (trusted.has(target.origin)) return addresses;
  for (const { address } of addresses) {
    const kind = nonPublicKind(address);
    if (kind === null) continue;
    const what = `${/^[aeio]/.test(kind) ? 'an' : 'a'} ${kind} address`;
    const where = literal ? `${target.host} is ${what}` : `${host} resolves to ${address}, ${what}`;
    const whatFr = `une adresse ${FRENCH_KINDS[kind] ?? kind}`;
    const whereFr = literal ? `${target.host} est ${whatFr}` : `${host} se résout en ${address}, ${whatFr}`;
    throw new MirrorUrlRefusedError({
      en: `${where}; only public addresses can be mirrored`,
      fr: `${whereFr} ; seules les adresses publiques peuvent être mises en miroir`,
    });
  }
  return addresses;
}

/** Hands the socket the addresses already judged instead of letting it resolve the name again. */
export function pinnedLookup(addresses: Address[]): LookupFunction {
  const entries = addresses.map(({ address }) => ({ address, family: isIP(address) }));
  return (_hostname, options, callback) => {
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  };
}
