import ipaddr from 'ipaddr.js';

/** A parsed IPv4 or IPv6 address. */
export type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A compiled list of addresses and CIDR ranges. */
export interface IpRules {
  /** True when the (already normalised) address is in one of the ranges. */
  matches(address: Address): boolean;
  readonly size: number;
}

/**
 * Parses one address strictly (dotted-quad IPv4 or IPv6, zone ids refused) and unwraps
 * IPv4-mapped IPv6 (`::ffff:1.2.3.4` → `1.2.3.4`); null when it is not an address.
 */
export function parseAddress(text: string): Address | null {
  const value = text.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) return ipaddr.IPv4.parse(value);
  if (!value.includes('%') && ipaddr.IPv6.isValid(value)) {
    const v6 = ipaddr.IPv6.parse(value);
    return v6.isIPv4MappedAddress() ? v6.toIPv4Address() : v6;
  }
  return null;
}

/** Parses `addr` or `addr/prefix` into a normalised range; a mapped IPv6 range becomes IPv4. */
function parseRange(text: string): [Address, number] | null {
  const [addressText, prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0 || addressText === undefined) return null;
  const value = addressText.trim();
  let address: Address;
  if (ipaddr.IPv4.isValidFourPartDecimal(value)) address = ipaddr.IPv4.parse(value);
  else if (!value.includes('%') && ipaddr.IPv6.isValid(value)) address = ipaddr.IPv6.parse(value);
  else return null;
  const max = address.kind() === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) return null;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [address, prefix];
}

/** True when the text is an IPv4/IPv6 address or CIDR range. */
export function isAddressOrCidr(text: string): boolean {
  return parseRange(text) !== null;
}

/** The rules of an empty list, shared: most keys have no allowlist, and a cached key holds its rules. */
const NO_RULES: IpRules = Object.freeze({ size: 0, matches: () => false });

/** Compiles a list once; entries that do not parse match nothing, so a broken list fails closed. */
export function compileIpRules(entries: readonly string[]): IpRules {
  if (entries.length === 0) return NO_RULES;
  const ranges = entries.map(parseRange).filter((range): range is [Address, number] => range !== null);
  return {
    size: entries.length,
    matches(address) {
      return ranges.some(([base, prefix]) => base.kind() === address.kind() && address.match(base, prefix));
    },
  };
}

/**
 * The client address: the socket peer, unless the peer is a trusted proxy, in which case
 * `X-Forwarded-For` is walked from the right past trusted hops and the first untrusted hop wins.
 * If every hop is trusted the left-most one is the client; an unparseable hop stops the walk at
 * the trusted hop that reported it. Never takes the left-most entry blindly.
 */
export function resolveClientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: IpRules,
): Address | null {
  let client = peer ? parseAddress(peer) : null;
  if (!client || trusted.size === 0 || !forwardedFor || !trusted.matches(client)) return client;
  const hops = forwardedFor.split(',');
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = parseAddress(hops[index]!);
    if (!hop) return client;
    client = hop;
    if (!trusted.matches(hop)) return hop;
  }
  return client;
}

/** The canonical text of an address (`1.2.3.4`, RFC 5952 for IPv6). */
export function formatAddress(address: Address): string {
  return address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
}

/** A request's client: its address (null when unparseable) and the text logs and usage show. */
export interface ResolvedClient {
  address: Address | null;
  text: string;
}

/**
 * The client of a request from its socket peer and `X-Forwarded-For` (believed through trusted
 * proxies only, see resolveClientAddress); an unparseable peer shows as itself, or `unknown`.
 */
export function resolveClient(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: IpRules,
): ResolvedClient {
  const joined = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const address = resolveClientAddress(peer, joined, trusted);
  return { address, text: address ? formatAddress(address) : (peer ?? 'unknown') };
}
