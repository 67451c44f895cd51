import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compileIpRules, formatAddress, parseAddress, resolveClient } from '../../../src/auth/ip-rules.ts';

const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
/** The first `bits` bits of two IPv4 addresses are equal. */
function samePrefix(a: string, b: string, bits: number): boolean {
  const toInt = (text: string) => text.split('.').reduce((n, part) => n * 256 + Number(part), 0);
  if (bits === 0) return true;
  const shift = 32 - bits;
  return Math.floor(toInt(a) / 2 ** shift) === Math.floor(toInt(b) / 2 ** shift);
}

describe('properties: the IP rules', () => {
  it('an IPv4 CIDR range holds exactly the addresses that share its prefix, written plain or IPv4-mapped', () => {
    fc.assert(
      fc.property(ipv4, fc.nat(32), ipv4, (base, bits, candidate) => {
        const rules = compileIpRules([`${base}/${bits}`]);
        const expected = samePrefix(base, candidate, bits);
        assert.equal(rules.matches(parseAddress(candidate)!), expected, `${candidate} in ${base}/${bits}`);
        assert.equal(rules.matches(parseAddress(`::ffff:${candidate}`)!), expected);
        const mapped = compileIpRules([`::ffff:${base}/${96 + bits}`]);
        assert.equal(mapped.matches(parseAddress(candidate)!), expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('IPv6 addresses match their own /128 and /64 in any spelling, and never an IPv4 range', () => {
    fc.assert(
      fc.property(fc.ipV6(), ipv4, (address, v4) => {
        const parsed = parseAddress(address);
        fc.pre(parsed !== null && parsed.kind() === 'ipv6');
        const canonical = formatAddress(parsed!);
        assert.ok(compileIpRules([`${canonical}/128`]).matches(parseAddress(address.toUpperCase())!));
        assert.ok(compileIpRules([`${address}/64`]).matches(parsed!));
        assert.equal(compileIpRules([`${v4}/0`]).matches(parsed!), false);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses anything else as an entry (fails closed) and never throws', () => {
    fc.assert(
      fc.property(fc.string(), ipv4, (entry, candidate) => {
        const rules = compileIpRules([entry]);
        const matched = rules.matches(parseAddress(candidate)!);
        if (matched)
          assert.ok(/^[\d.:a-fA-F/\s]+$/.test(entry), `${JSON.stringify(entry)} matched ${candidate}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes X-Forwarded-For only through trusted proxies: an untrusted peer is always the client', () => {
    fc.assert(
      fc.property(ipv4, fc.array(fc.oneof(ipv4, fc.string()), { maxLength: 5 }), (peer, hops) => {
        const trusted = compileIpRules(['10.0.0.0/8']);
        fc.pre(!trusted.matches(parseAddress(peer)!));
        const client = resolveClient(peer, hops.join(','), trusted);
        assert.equal(client.text, peer);
      }),
      { numRuns: 1000 },
    );
  });
});
