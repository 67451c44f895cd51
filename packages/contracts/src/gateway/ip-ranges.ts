import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A parsed allowlist entry: a network address and its prefix length (a single address is /32 or /128). */
export interface IpRange {
  address: Address;
  prefix: number;
}

/** Parses strictly: dotted-quad IPv4 or IPv6 (no zone id); null otherwise. */
function parseStrictAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/**
 * Parses an allowlist entry (`1.2.3.4`, `10.0.0.0/8`, `2001:db8::/32`, `::ffff:1.2.3.0/120`).
 * Returns a reason string when it is invalid, including a CIDR with host bits set, which is
 * almost always a typo. IPv4-mapped IPv6 ranges of /96 or longer are unwrapped to IPv4.
 */
export function parseIpRange(entry: string): IpRange | string {
  const parts = entry.split('/');
  if (parts.length > 2) return `"${entry}" is not an IP address or CIDR range`;
  const address = parseStrictAddress(parts[0] ?? '');
  if (!address) return `"${entry}" is not an IPv4 or IPv6 address`;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  const prefixText = parts[1];
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))
    return `"${entry}" has an invalid prefix length`;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return `"${entry}" has a prefix length above ${max}`;
  const network = ipaddr.parse(networkOf(address, prefix));
  if (network.toString() !== address.toString()) {
    return `"${entry}" has host bits set; did you mean ${network.toString()}/${prefix}?`;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return { address: (address as ipaddr.IPv6).toIPv4Address(), prefix: prefix - 96 };
  }
  return { address, prefix };
}

function networkOf(address: Address, prefix: number): string {
  const bytes = address.toByteArray();
  const masked = bytes.map((byte, i) => {
    const bits = Math.min(8, Math.max(0, prefix - i * 8));
    return byte & ((0xff << (8 - bits)) & 0xff);
  });
  return ipaddr.fromByteArray(masked).toString();
}

/** Canonical text of a valid entry (compressed IPv6, no `/32` or `/128` for single addresses). */
export function formatIpRange(range: IpRange): string {
  const max = range.address.kind() === 'ipv4' ? 32 : 128;
  const text = range.address.toString();
  return range.prefix === max ? text : `${text}/${range.prefix}`;
}

/** True when every address of `inner` lies inside `outer`. */
export function isRangeWithin(inner: IpRange, outer: IpRange): boolean {
  return (
    inner.address.kind() === outer.address.kind() &&
    inner.prefix >= outer.prefix &&
    inner.address.match(outer.address, outer.prefix)
  );
}

/** True when the entry lies inside at least one of the ranges (invalid entries lie nowhere). */
export function isEntryCovered(entry: string, ranges: readonly string[]): boolean {
  const inner = parseIpRange(entry);
  if (typeof inner === 'string') return false;
  return ranges.some((text) => {
    const outer = parseIpRange(text);
    return typeof outer !== 'string' && isRangeWithin(inner, outer);
  });
}
