import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, `::` expanded and an embedded IPv4 tail converted. */
function groupsOf(address: string): string[] {
  let text = address.split('%')[0]!.toLowerCase();
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4Tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((group) => Number.parseInt(group, 16).toString(16));
}

/**
 * The unit a stranger's allowances are counted per: an IPv4 address, or an IPv6 address's /64 (one household
 * or one server is handed a whole /64, so each of its addresses is not a new stranger). IPv4-mapped IPv6
 * addresses count as their IPv4 address. Anything else is its own key.
 */
export function addressKey(address: string): string {
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return address;
  const groups = groupsOf(address);
  const mapped = groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff';
  if (mapped) {
    const [high, low] = [Number.parseInt(groups[6]!, 16), Number.parseInt(groups[7]!, 16)];
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}
