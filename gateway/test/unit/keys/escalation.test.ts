import assert from 'node:assert/strict';
import type { Actor } from '../../../src/model/model.ts';
import { createHarness, FROM_IP, type Harness, rejectsWith } from './harness.ts';

describe('no escalation through keys', () => {
  let h: Harness;
  /** A manager key: live, order:rw + article:r + auth:rw, expiring, IP-bound, 100/min. */
  let manager: Actor;
  let managerId: string;
  beforeEach(async () => {
    h = createHarness();
    const { key } = await h.adminCreate({
      name: 'manager',
      environment: 'live',
      scopes: ['auth:rw', 'order:rw', 'article:r'],
      expiresAt: '2025-06-30',
      ipAllowlist: ['10.0.0.0/8', '2001:db8::/32'],
      rateLimit: { perMinute: 100 },
    });
    managerId = key.id;
    manager = h.asKey(key.id);
  });
  afterEach(() => h.cleanup());

  const allowed = {
    name: 'child',
    scopes: ['order:r'],
    expiresAt: '2025-06-01',
    ipAllowlist: ['10.1.0.0/16'],
    rateLimit: { perMinute: 50 },
  };

  describe('createKey by a key', () => {
    it('creates a key within the actor in its own environment, attributed to the key', async () => {
      const { key } = await h.service.createKey(manager, allowed, FROM_IP);
      assert.equal(key.environment, 'live');
      const { items } = await h.store.listActivity({ keyId: key.id });
      assert.deepEqual(items[0]?.actor, { type: 'key', id: managerId });
    });

    it('caps the default rate limit at the actor’s own', async () => {
      const { rateLimit: _omitted, ...rest } = allowed;
      const { key } = await h.service.createKey(manager, rest, FROM_IP);
      assert.equal(key.rateLimit.perMinute, 100);
    });

    const refusals: Array<[string, Record<string, unknown>, string]> = [
      ['another environment', { environment: 'test' }, 'environment'],
      ['a scope the actor lacks', { scopes: ['stock:r'] }, 'scopes'],
      ['write where the actor only reads', { scopes: ['article:rw'] }, 'scopes'],
      ['auth:rw, even though the actor holds it', { scopes: ['auth:rw'] }, 'auth_scope'],
      ['auth:r', { scopes: ['order:r', 'auth:r'] }, 'auth_scope'],
      ['no expiry while the actor expires', { expiresAt: null }, 'expiry'],
      ['an expiry after the actor’s', { expiresAt: '2025-07-01' }, 'expiry'],
      ['no IP allowlist while the actor has one', { ipAllowlist: [] }, 'ip_allowlist'],
      ['a wider IP range', { ipAllowlist: ['10.0.0.0/7'] }, 'ip_allowlist'],
      ['an address outside the actor’s ranges', { ipAllowlist: ['10.0.0.1', '192.0.2.1'] }, 'ip_allowlist'],
      ['a higher rate limit', { rateLimit: { perMinute: 101 } }, 'rate_limit'],
    ];
    for (const [what, patch, rule] of refusals) {
      it(`refuses ${what} with 403 ESCALATION_DENIED (${rule}) and creates nothing`, async () => {
        const error = await rejectsWith(
          h.service.createKey(manager, { ...allowed, ...patch }, FROM_IP),
          'ESCALATION_DENIED',
          rule,
        );
        assert.equal(error.status, 403);
        assert.equal((await h.store.listKeys()).length, 1);
      });
    }

    it('refuses a caller key that was revoked meanwhile with 401', async () => {
      await h.service.revokeKey({ type: 'admin', id: 'a' }, managerId, FROM_IP);
      await rejectsWith(h.service.createKey(manager, allowed, FROM_IP), 'KEY_REVOKED');
    });
  });

  describe('changing other keys', () => {
    let weakId: string;
    let strongId: string;
    let testId: string;
    beforeEach(async () => {
      weakId = (await h.service.createKey(manager, allowed, FROM_IP)).key.id;
      strongId = (await h.adminCreate({ name: 'strong', scopes: ['stock:rw'], expiresAt: '2025-06-01' })).key
        .id;
      testId = (await h.adminCreate({ name: 'test', environment: 'test', scopes: ['order:r'] })).key.id;
    });

    it('narrows and widens a weaker key within the actor’s scopes', async () => {
      const key = await h.service.changeScopes(manager, weakId, ['order:rw', 'article:r'], FROM_IP);
      assert.deepEqual(key.scopes, ['article:r', 'order:rw']);
    });

    it('refuses to grant a scope the actor lacks (scopes)', async () => {
      await rejectsWith(
        h.service.changeScopes(manager, weakId, ['stock:r'], FROM_IP),
        'ESCALATION_DENIED',
        'scopes',
      );
    });

    it('refuses to grant auth:* through a scope change (auth_scope)', async () => {
      await rejectsWith(
        h.service.changeScopes(manager, weakId, ['order:r', 'auth:r'], FROM_IP),
        'ESCALATION_DENIED',
        'auth_scope',
      );
    });

    it('refuses to change, rotate, revoke or close secrets of a stronger key (target_scopes)', async () => {
      await rejectsWith(
        h.service.changeScopes(manager, strongId, ['order:r'], FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
      await rejectsWith(
        h.service.rotateKey(manager, strongId, {}, FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
      await rejectsWith(
        h.service.revokeKey(manager, strongId, FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
      await rejectsWith(
        h.service.closeSecret(manager, strongId, undefined, FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
      const strong = await h.store.getKey(strongId);
      assert.equal(strong?.version, 1);
    });

    it('answers 404 for a key of another environment, on reads and changes alike', async () => {
      await rejectsWith(h.service.getKey(manager, testId), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.changeScopes(manager, testId, ['order:r'], FROM_IP), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.revokeKey(manager, testId, FROM_IP), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.rotateKey(manager, testId, {}, FROM_IP), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.getUsage(manager, testId), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.getActivity(manager, testId), 'KEY_NOT_FOUND');
      await rejectsWith(h.service.getLogs(manager, testId), 'KEY_NOT_FOUND');
      assert.deepEqual(
        (await h.service.listKeys(manager, { environment: 'test' })).map((k) => k.environment),
        ['live', 'live', 'live'],
      );
    });

    const unfitTargets: Array<[string, Record<string, unknown>, string]> = [
      ['never expires while the actor does', { expiresAt: null }, 'expiry'],
      ['expires after the actor', { expiresAt: '2025-07-01' }, 'expiry'],
      ['has no IP allowlist while the actor has one', { ipAllowlist: [] }, 'ip_allowlist'],
      [
        'allows addresses outside the actor’s ranges',
        { ipAllowlist: ['10.0.0.1', '192.0.2.0/24'] },
        'ip_allowlist',
      ],
      ['has a higher rate limit than the actor', { rateLimit: { perMinute: 500 } }, 'rate_limit'],
    ];
    for (const [what, patch, rule] of unfitTargets) {
      it(`refuses to change the scopes of a covered key that ${what} (${rule}), changing nothing`, async () => {
        const target = (await h.adminCreate({ ...allowed, ...patch })).key;
        await rejectsWith(
          h.service.changeScopes(manager, target.id, ['order:r', 'article:r'], FROM_IP),
          'ESCALATION_DENIED',
          rule,
        );
        await rejectsWith(
          h.service.changeScopes(manager, target.id, ['article:r'], FROM_IP),
          'ESCALATION_DENIED',
          rule,
        );
        assert.equal((await h.store.getKey(target.id))?.version, 1);
      });
    }

    it('changes the scopes of a covered key it could have created', async () => {
      const target = (
        await h.adminCreate({ ...allowed, expiresAt: '2025-06-30', rateLimit: { perMinute: 100 } })
      ).key;
      const changed = await h.service.changeScopes(manager, target.id, ['article:r'], FROM_IP);
      assert.deepEqual(changed.scopes, ['article:r']);
    });

    it('refuses to rotate a covered key that outlives the actor or has no IP limit (a new credential)', async () => {
      const open = (await h.adminCreate({ name: 'open', scopes: ['order:r'] })).key.id;
      await rejectsWith(h.service.rotateKey(manager, open, {}, FROM_IP), 'ESCALATION_DENIED', 'expiry');
      const noIp = (await h.adminCreate({ name: 'no-ip', scopes: ['order:r'], expiresAt: '2025-05-01' })).key
        .id;
      await rejectsWith(h.service.rotateKey(manager, noIp, {}, FROM_IP), 'ESCALATION_DENIED', 'ip_allowlist');
      const rotated = await h.service.rotateKey(manager, weakId, {}, FROM_IP);
      assert.equal(rotated.key.id, weakId);
    });
  });

  describe('changing itself', () => {
    it('refuses to widen its own scopes (self_widening)', async () => {
      await rejectsWith(
        h.service.changeScopes(manager, managerId, ['auth:rw', 'order:rw', 'article:rw'], FROM_IP),
        'ESCALATION_DENIED',
        'self_widening',
      );
    });

    it('may narrow its own scopes, keeping auth:rw it already holds', async () => {
      const key = await h.service.changeScopes(manager, managerId, ['auth:rw', 'order:r'], FROM_IP);
      assert.deepEqual(key.scopes, ['auth:rw', 'order:r']);
    });

    it('may rotate and revoke itself', async () => {
      const rotated = await h.service.rotateKey(manager, managerId, { overlapDays: 1 }, FROM_IP);
      assert.equal(rotated.key.rotation.inProgress, true);
      const revoked = await h.service.revokeKey(manager, managerId, FROM_IP);
      assert.equal(revoked.status, 'revoked');
    });
  });
});
