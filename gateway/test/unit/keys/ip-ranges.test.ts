import assert from 'node:assert/strict';
import { formatIpRange, isEntryCovered, parseIpRange } from '../../../src/keys/ip-ranges.ts';

const format = (entry: string) => {
  const range = parseIpRange(entry);
  return typeof range === 'string' ? range : formatIpRange(range);
};

describe('IP allowlist entries', () => {
  describe('parseIpRange', () => {
    it('accepts IPv4, IPv6 and CIDR ranges in canonical form', () => {
      assert.equal(format('203.0.113.7'), '203.0.113.7');
      assert.equal(format('10.0.0.0/8'), '10.0.0.0/8');
      assert.equal(format('2001:DB8:0:0::1'), '2001:db8::1');
      assert.equal(format('2001:db8::/32'), '2001:db8::/32');
      assert.equal(format('203.0.113.7/32'), '203.0.113.7');
    });
    it('unwraps IPv4-mapped IPv6 ranges', () => {
      assert.equal(format('::ffff:203.0.113.0/120'), '203.0.113.0/24');
      assert.equal(format('::ffff:203.0.113.7'), '203.0.113.7');
    });
    it('refuses junk, lax IPv4 forms, zone ids, bad prefixes and host bits', () => {
      for (const entry of [
        '',
        'localhost',
        '10.1',
        '0x7f.0.0.1',
        'fe80::1%eth0',
        '10.0.0.0/33',
        '10.0.0.0/x',
        '1.2.3.4/8/9',
      ]) {
        assert.equal(typeof parseIpRange(entry), 'string', entry);
      }
      assert.match(
        parseIpRange('192.168.1.5/24') as string,
        /host bits set; did you mean 192\.168\.1\.0\/24/,
      );
    });
  });

  describe('isEntryCovered', () => {
    it('accepts an address or narrower range inside one of the ranges', () => {
      assert.equal(isEntryCovered('10.1.2.3', ['10.0.0.0/8']), true);
      assert.equal(isEntryCovered('10.1.0.0/16', ['192.0.2.0/24', '10.0.0.0/8']), true);
      assert.equal(isEntryCovered('2001:db8:1::/48', ['2001:db8::/32']), true);
      assert.equal(isEntryCovered('::ffff:10.0.0.1', ['10.0.0.0/8']), true);
    });
    it('refuses a wider range, another family or an address outside', () => {
      assert.equal(isEntryCovered('10.0.0.0/7', ['10.0.0.0/8']), false);
      assert.equal(isEntryCovered('11.0.0.1', ['10.0.0.0/8']), false);
      assert.equal(isEntryCovered('2001:db8::1', ['10.0.0.0/8']), false);
      assert.equal(isEntryCovered('nonsense', ['0.0.0.0/0']), false);
    });
  });
});
