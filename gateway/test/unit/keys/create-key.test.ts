import assert from 'node:assert/strict';
import { parseToken } from '../../../src/keys/token.ts';
import { ADMIN, createHarness, FROM_CLI, FROM_IP, type Harness, rejectsWith } from './harness.ts';

describe('keyService.createKey', () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  describe('as an administrator', () => {
    it('creates an active key, returns its token once and stores only a hash', async () => {
      const { key, secret } = await h.service.createKey(
        ADMIN,
        {
          name: '  checkout  ',
          environment: 'live',
          scopes: ['order:r', 'order:rw', 'article:r'],
          expiresAt: '2025-12-31',
          ipAllowlist: ['203.0.113.0/24', '2001:DB8::1'],
          rateLimit: { perMinute: 120 },
        },
        FROM_IP,
      );
      assert.equal(parseToken(secret)?.prefix, key.prefix);
      assert.equal(key.name, 'checkout');
      assert.deepEqual(key.scopes, ['article:r', 'order:rw']);
      assert.deepEqual(key.ipAllowlist, ['203.0.113.0/24', '2001:db8::1']);
      assert.equal(key.status, 'active');
      assert.equal(key.createdAt, '2025-03-01T12:00:00.000Z');
      assert.equal(key.rotation.inProgress, false);
      assert.equal(key.rotation.secrets.length, 1);
      const stored = await h.store.findByLookup(parseToken(secret)!.lookup);
      assert.notEqual(stored?.secret.hash, secret);
      assert.ok(!JSON.stringify(stored).includes(secret));
      assert.deepEqual(h.published, [key.id]);
    });

    it('may grant auth:rw and defaults the rate limit to the configured default', async () => {
      const { key } = await h.adminCreate({ scopes: ['auth:rw'] });
      assert.deepEqual(key.scopes, ['auth:rw']);
      assert.equal(key.rateLimit.perMinute, 600);
    });

    it('logs key.created with actor, time, source IP and the new state, never the token or hash', async () => {
      const { key, secret } = await h.service.createKey(
        ADMIN,
        { name: 'a', environment: 'test', scopes: ['stock:r'] },
        FROM_IP,
      );
      const { items } = await h.store.listActivity({ keyId: key.id });
      assert.equal(items.length, 1);
      const entry = items[0]!;
      assert.equal(entry.action, 'key.created');
      assert.deepEqual(entry.actor, ADMIN);
      assert.equal(entry.sourceIp, '198.51.100.4');
      assert.equal(entry.at, '2025-03-01T12:00:00.000Z');
      assert.equal(entry.before, null);
      assert.deepEqual((entry.after as { scopes: string[] }).scopes, ['stock:r']);
      const text = JSON.stringify(entry);
      assert.ok(!text.includes(secret));
      assert.ok(!text.includes('fake$'));
    });
  });

  describe('with invalid input', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['an empty name', { name: '   ' }, '/name'],
      ['a name over 100 characters', { name: 'x'.repeat(101) }, '/name'],
      ['no scopes', { scopes: [] }, '/scopes'],
      ['an unknown scope', { scopes: ['article:r', 'payroll:rw'] }, '/scopes/1'],
      ['an unknown environment', { environment: 'prod' }, '/environment'],
      ['a malformed expiry', { expiresAt: '2025-3-1' }, '/expiresAt'],
      ['an impossible date', { expiresAt: '2025-02-30' }, '/expiresAt'],
      ['an expiry in the past', { expiresAt: '2025-02-28' }, '/expiresAt'],
      ['an invalid IP entry', { ipAllowlist: ['10.0.0.1', 'not-an-ip'] }, '/ipAllowlist/1'],
      [
        'more than 50 IP entries',
        { ipAllowlist: Array.from({ length: 51 }, (_, i) => `10.0.0.${i}`) },
        '/ipAllowlist',
      ],
      ['a rate limit of 0', { rateLimit: { perMinute: 0 } }, '/rateLimit/perMinute'],
      ['a rate limit over 100000', { rateLimit: { perMinute: 100_001 } }, '/rateLimit/perMinute'],
      ['an unknown member', { secret: 'mine' }, ''],
    ];
    for (const [what, patch, pointer] of cases) {
      it(`refuses ${what} with 422 and a pointer to ${pointer || 'the body'}, creating nothing`, async () => {
        const input = { name: 'k', environment: 'live', scopes: ['article:r'], ...patch };
        const error = await rejectsWith(
          h.service.createKey(ADMIN, input as never, FROM_CLI),
          'VALIDATION_FAILED',
        );
        const errors = error.extensions.errors as Array<{ pointer: string }>;
        assert.ok(
          errors.some((e) => e.pointer === pointer),
          JSON.stringify(errors),
        );
        assert.deepEqual(await h.store.listKeys(), []);
      });
    }

    it('accepts an expiry of today (valid through the end of the day)', async () => {
      const { key } = await h.adminCreate({ expiresAt: '2025-03-01' });
      assert.equal(key.expiresAt, '2025-03-01');
      assert.deepEqual(key.expiryReminder, { expiresAt: '2025-03-01', daysLeft: 1 });
    });

    it('requires an environment from an administrator', async () => {
      await rejectsWith(
        h.service.createKey(ADMIN, { name: 'k', scopes: ['article:r'] }, FROM_CLI),
        'VALIDATION_FAILED',
      );
    });
  });
});
