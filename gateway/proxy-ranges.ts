import { isIPv4, isIPv6 } from 'node:net';

/** How many public addresses a TRUST_PROXY list believes, per family. */
export interface TrustedAddresses {
  ipv4: bigint;
  ipv6: bigint;
}

interface Range {
  family: 4 | 6;
  network: bigint;
  prefix: number;
}

const BITS = { 4: 32, 6: 128 } as const;

/** proxy-addr's names: private, loopback and link-local ranges, which no stranger on the internet connects from. */
const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const PRIVATE = [
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fe80::/10',
  'fc00::/7',
].map((text) => parseRange(text) as Range);

function ipv4Bits(text: string): bigint {
  return text.split('.').reduce((bits, octet) => (bits << 8n) | BigInt(Number(octet)), 0n);
}

function ipv6Bits(text: string): bigint {
  let groups = text;
  if (text.includes('.')) {
    // A trailing dotted IPv4 (::ffff:10.0.0.1) stands for the last two groups.
    const at = text.lastIndexOf(':') + 1;
    const v4 = ipv4Bits(text.slice(at));
    groups = `${text.slice(0, at)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = groups.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const all = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((bits, group) => (bits << 16n) | BigInt(parseInt(group, 16)), 0n);
}

/**
 * One entry as proxy-addr reads it (an address, with a prefix length or an IPv4 netmask), in the usual notation
 * only: proxy-addr also takes forms such as `0/1` (a whole number for an IPv4 address), which are not measured here.
 * An IPv4-mapped IPv6 range with a prefix of 96 or more is the IPv4 range it matches.
 */
function parseRange(entry: string): Range | undefined {
  const slash = entry.lastIndexOf('/');
  const address = (slash === -1 ? entry : entry.slice(0, slash)).replace(/%.*$/, '');
  const suffix = slash === -1 ? undefined : entry.slice(slash + 1);
  const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : undefined;
  if (family === undefined) return undefined;
  const network = family === 4 ? ipv4Bits(address) : ipv6Bits(address);
  let prefix: number;
  if (suffix === undefined) prefix = BITS[family];
  else if (/^\d+$/.test(suffix)) prefix = Number(suffix);
  else if (family === 4 && isIPv4(suffix)) prefix = ipv4Bits(suffix).toString(2).replace(/0+$/, '').length;
  else return undefined;
  if (prefix < 0 || prefix > BITS[family]) return undefined;
  if (family === 6 && network >> 32n === 0xffffn && (prefix >= 96 || suffix === undefined)) {
    return { family: 4, network: network & 0xffffffffn, prefix: prefix - 96 };
  }
  return { family, network, prefix };
}

function within(range: Range, outer: Range): boolean {
  if (range.family !== outer.family || range.prefix < outer.prefix) return false;
  const shift = BigInt(BITS[range.family] - outer.prefix);
  return range.network >> shift === outer.network >> shift;
}

/**
 * The public addresses a list of trusted proxies covers, per family: what a client could connect from and then be
 * believed about the address it claims. Ranges inside private, loopback or link-local space count nothing; overlaps
 * count twice. `undefined` when an entry is in a notation this does not read.
 */
export function publicAddressesTrusted(entries: string[]): TrustedAddresses | undefined {
  const total: TrustedAddresses = { ipv4: 0n, ipv6: 0n };
  for (const entry of entries) {
    if (NAMES.has(entry)) continue;
    const range = parseRange(entry);
    if (!range) return undefined;
    if (PRIVATE.some((outer) => within(range, outer))) continue;
    total[range.family === 4 ? 'ipv4' : 'ipv6'] += 1n << BigInt(BITS[range.family] - range.prefix);
  }
  return total;
}
