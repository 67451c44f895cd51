import assert from 'node:assert/strict';
import { checkUrlAddress, isPrivateAddress, type LookupHost } from '../../src/webhooks/url-policy.ts';

describe('webhook URL policy', () => {
  describe('isPrivateAddress', () => {
    const cases: Array<[string, boolean]> = [
      ['127.0.0.1', true],
      ['127.255.0.9', true],
      ['10.20.30.40', true],
      ['172.16.0.1', true],
      ['172.31.255.255', true],
      ['192.168.0.1', true],
      ['169.254.169.254', true],
      ['100.64.0.1', true],
      ['0.0.0.0', true],
      ['224.0.0.1', true],
      ['255.255.255.255', true],
      ['::1', true],
      ['::', true],
      ['::ffff:127.0.0.1', true],
      ['fc00::1', true],
      ['fd12:3456::1', true],
      ['fe80::1', true],
      ['ff02::1', true],
      ['64:ff9b::7f00:1', true],
      ['64:ff9b::169.254.169.254', true],
      ['64:ff9b::a00:1', true],
      ['64:ff9b:1::808:808', true],
      ['2002:7f00:1::1', true],
      ['2002:c0a8:101::', true],
      ['2002:a9fe:a9fe:1::5', true],
      ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
      ['::7f00:1', true],
      ['::ffff:a00:1', true],
      ['64:ff9b::808:808', false],
      ['2002:808:808::1', false],
      ['8.8.8.8', false],
      ['172.32.0.1', false],
      ['93.184.216.34', false],
      ['2606:4700:4700::1111', false],
    ];
    for (const [address, expected] of cases) {
      it(`${address} is ${expected ? 'not public' : 'public'}`, () => {
        assert.equal(isPrivateAddress(address), expected);
      });
    }
  });

  describe('checkUrlAddress', () => {
    const lookupHost: LookupHost = async (host) => {
      const table: Record<string, string[]> = {
        'public.example': ['93.184.216.34'],
        'mixed.example': ['93.184.216.34', '192.168.1.1'],
        'v6.example': ['2606:4700:4700::1111'],
      };
      const addresses = table[host];
      if (!addresses) throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    };
    const check = (url: string, allowPrivate = false) =>
      checkUrlAddress(new URL(url), { allowPrivate, lookupHost });

    it('passes public names and IPs, pinning the first address', async () => {
      assert.deepEqual(await check('https://public.example/x'), {
        ok: true,
        target: { address: '93.184.216.34', family: 4 },
      });
      assert.deepEqual(await check('https://v6.example/'), {
        ok: true,
        target: { address: '2606:4700:4700::1111', family: 6 },
      });
      assert.deepEqual(await check('http://[2606:4700:4700::1111]:8080/'), {
        ok: true,
        target: { address: '2606:4700:4700::1111', family: 6 },
      });
    });
    it('refuses a name with any private address, private literals and unresolvable names', async () => {
      for (const url of [
        'https://mixed.example/',
        'http://10.0.0.1/',
        'http://[::1]/',
        'https://missing.example/',
      ]) {
        const result = await check(url);
        assert.equal(result.ok, false, url);
      }
      assert.match(JSON.stringify(await check('https://missing.example/')), /ENOTFOUND/);
    });
    it('refuses with a generic reason that never says what a name resolves to (the detail is for logs)', async () => {
      const result = await check('https://mixed.example/');
      assert.equal(result.ok, false);
      if (result.ok) return;
      assert.doesNotMatch(result.reason, /192\.168|mixed\.example/);
      assert.match(result.detail, /mixed\.example resolves to 192\.168\.1\.1/);
    });
    it('allows private addresses when configured to', async () => {
      assert.equal((await check('https://mixed.example/', true)).ok, true);
      assert.equal((await check('http://127.0.0.1:9/', true)).ok, true);
    });
  });
});
