import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** One resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the port behind dns.lookup, replaceable in tests). */
export type LookupHost = (hostname: string) => Promise<ResolvedAddress[]>;

/** dns.lookup with `all: true`: what the operating system's resolver (and /etc/hosts) answers. */
export const lookupHostWithDns: LookupHost = async (hostname) => {
  const addresses = await lookup(hostname, { all: true, verbatim: true });
  return addresses.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/*
 * Addresses a webhook may not reach unless private addresses are allowed: loopback, private
 * (RFC 1918, CGNAT), link-local, unique-local, multicast, reserved and documentation ranges,
 * the unspecified address and IPv4-mapped or -compatible IPv6. IPv6 prefixes that embed an IPv4
 * address (NAT64 64:ff9b::/96, 6to4 2002::/16) are refused wherever the embedded address would be;
 * Teredo (2001::/32, embedded address obfuscated) and local-use NAT64 (64:ff9b:1::/48) entirely.
 */
const NON_PUBLIC_V4 = new BlockList();
// A separate list: a BlockList checks IPv4 addresses against IPv6 rules as IPv4-mapped ones.
const NON_PUBLIC_V6 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC_V4.addSubnet(network, prefix, 'ipv4');
  const [a, b, c, d] = network.split('.').map(Number) as [number, number, number, number];
  const high = ((a << 8) | b).toString(16);
  const low = ((c << 8) | d).toString(16);
  NON_PUBLIC_V6.addSubnet(`64:ff9b::${high}:${low}`, 96 + prefix, 'ipv6');
  NON_PUBLIC_V6.addSubnet(`2002:${high}:${low}::`, 16 + prefix, 'ipv6');
}
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['64:ff9b:1::', 48],
  ['2001::', 32],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC_V6.addSubnet(network, prefix, 'ipv6');
}

/** True for an IP address a webhook may not reach by default (the ranges above); false for public ones. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) throw new TypeError(`${address} is not an IP address`);
  return family === 4 ? NON_PUBLIC_V4.check(address, 'ipv4') : NON_PUBLIC_V6.check(address, 'ipv6');
}

/** The host of a URL as dns.lookup and isIP take it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Where a delivery may connect, or why it may not: `reason` is generic (safe to show: it never says
 * what a name resolves to), `detail` says what was found, for logs only.
 */
export type AddressCheck =
  | { ok: true; target: ResolvedAddress }
  | { ok: false; reason: string; detail: string };

/**
 * Resolves a URL's host (literal IPs as they are, names with `lookupHost`) and checks every
 * address: when private addresses are not allowed, one private address refuses the URL, so a
 * name that resolves to both cannot slip through. The caller connects to `target` and nothing else.
 */
export async function checkUrlAddress(
  url: URL,
  options: { allowPrivate: boolean; lookupHost: LookupHost },
): Promise<AddressCheck> {
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  const family = isIP(host);
  if (family !== 0) {
    addresses = [{ address: host, family: family === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await options.lookupHost(host);
    } catch (error) {
      const code = (error as { code?: string }).code ?? String(error);
      return {
        ok: false,
        reason: 'the host cannot be resolved',
        detail: `${host} cannot be resolved (${code})`,
      };
    }
  }
  const [first] = addresses;
  if (!first)
    return { ok: false, reason: 'the host resolves to no address', detail: `${host} resolves to no address` };
  if (!options.allowPrivate) {
    const blocked = addresses.find((a) => isPrivateAddress(a.address));
    if (blocked) {
      const via = blocked.address === host ? '' : ` (${host} resolves to ${blocked.address})`;
      return {
        ok: false,
        reason: 'the host is a loopback, private or otherwise non-public address',
        detail: `${blocked.address} is not public${via}`,
      };
    }
  }
  return { ok: true, target: first };
}
