import assert from 'node:assert/strict';
import {
  compileIpRules,
  formatAddress,
  isAddressOrCidr,
  parseAddress,
  resolveClientAddress,
} from '../../../src/auth/ip-rules.ts';

const addr = (text: string) => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return address;
};

describe('ip rules', () => {
  describe('parseAddress', () => {
    it('unwraps IPv4-mapped IPv6 and refuses shorthand IPv4 and zone ids', () => {
      assert.equal(formatAddress(addr('::ffff:1.2.3.4')), '1.2.3.4');
      assert.equal(formatAddress(addr('2001:DB8:0:0::1')), '2001:db8::1');
      assert.equal(parseAddress('127.1'), null);
      assert.equal(parseAddress('fe80::1%eth0'), null);
      assert.equal(parseAddress('example.com'), null);
    });
  });

  describe('compileIpRules', () => {
    const rules = compileIpRules(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '::ffff:203.0.113.0/120']);

    it('matches IPv4 and IPv6 CIDRs and single addresses', () => {
      assert.equal(rules.matches(addr('10.200.1.1')), true);
      assert.equal(rules.matches(addr('192.0.2.7')), true);
      assert.equal(rules.matches(addr('192.0.2.8')), false);
      assert.equal(rules.matches(addr('2001:db8:ffff::1')), true);
      assert.equal(rules.matches(addr('2001:db9::1')), false);
    });

    it('matches mapped client addresses against IPv4 ranges and mapped ranges against IPv4 clients', () => {
      assert.equal(rules.matches(addr('::ffff:10.1.1.1')), true);
      assert.equal(rules.matches(addr('203.0.113.200')), true);
      assert.equal(rules.matches(addr('203.0.114.1')), false);
    });

    it('fails closed on entries that do not parse', () => {
      const broken = compileIpRules(['nonsense', '10.0.0.0/99']);
      assert.equal(broken.size, 2);
      assert.equal(broken.matches(addr('10.0.0.1')), false);
      assert.equal(isAddressOrCidr('10.0.0.0/99'), false);
      assert.equal(isAddressOrCidr('::/0'), true);
    });
  });

  describe('resolveClientAddress', () => {
    const trusted = compileIpRules(['10.0.0.1', '172.16.0.0/12']);
    const resolve = (peer: string, chain?: string) => {
      const address = resolveClientAddress(peer, chain, trusted);
      return address && formatAddress(address);
    };

    it('ignores X-Forwarded-For from an untrusted peer', () => {
      assert.equal(resolve('203.0.113.5', '1.1.1.1'), '203.0.113.5');
    });

    it('walks from the right past trusted hops to the first untrusted one', () => {
      assert.equal(resolve('::ffff:10.0.0.1', '6.6.6.6, 198.51.100.1, 172.16.5.5'), '198.51.100.1');
    });

    it('uses the left-most hop when every hop is trusted', () => {
      assert.equal(resolve('10.0.0.1', '172.16.0.9, 172.16.0.8'), '172.16.0.9');
    });

    it('stops at the trusted hop that reported an unparseable entry', () => {
      assert.equal(resolve('10.0.0.1', '198.51.100.1, garbage, 172.16.0.8'), '172.16.0.8');
    });

    it('uses the peer when there is no header', () => {
      assert.equal(resolve('10.0.0.1'), '10.0.0.1');
    });
  });
});
