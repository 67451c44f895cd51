import assert from 'node:assert/strict';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { KeyStore } from '../../../src/store/store.ts';
import {
  ADMIN,
  createHarness,
  DAY,
  FROM_IP,
  fakeHasher,
  type Harness,
  HOUR,
  rejectsWith,
} from './harness.ts';

describe('key changes', () => {
  let h: Harness;
  beforeEach(() => {
    h = createHarness();
  });
  afterEach(() => h.cleanup());

  describe('changeScopes', () => {
    it('replaces the scopes, bumps the version and logs before/after', async () => {
      const { key } = await h.adminCreate({ scopes: ['article:r'] });
      h.clock.advance(HOUR);
      const changed = await h.service.changeScopes(ADMIN, key.id, ['order:rw', 'order:r'], FROM_IP);
      assert.deepEqual(changed.scopes, ['order:rw']);
      assert.equal(changed.version, 2);
      assert.equal(changed.updatedAt, new Date(h.clock()).toISOString());
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.scopes_changed' });
      assert.deepEqual(items[0]?.before, { scopes: ['article:r'] });
      assert.deepEqual(items[0]?.after, { scopes: ['order:rw'] });
      assert.deepEqual(h.published, [key.id, key.id]);
    });

    it('changes and logs nothing when the scopes are the same', async () => {
      const { key } = await h.adminCreate({ scopes: ['article:r'] });
      const same = await h.service.changeScopes(ADMIN, key.id, ['article:r'], FROM_IP);
      assert.equal(same.version, 1);
      assert.equal((await h.service.getActivity(ADMIN, key.id)).items.length, 1);
    });

    it('answers 404 for an unknown key and 409 KEY_NOT_ACTIVE for a revoked one', async () => {
      await rejectsWith(h.service.changeScopes(ADMIN, 'key_nope', ['article:r'], FROM_IP), 'KEY_NOT_FOUND');
      const { key } = await h.adminCreate({});
      await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      await rejectsWith(h.service.changeScopes(ADMIN, key.id, ['order:r'], FROM_IP), 'KEY_NOT_ACTIVE');
    });
  });

  describe('revokeKey', () => {
    it('revokes the key, closes every open secret with reason revoked and logs it', async () => {
      const { key } = await h.adminCreate({});
      await h.service.rotateKey(ADMIN, key.id, { overlapDays: 2 }, FROM_IP);
      h.clock.advance(HOUR);
      const revoked = await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      const at = new Date(h.clock()).toISOString();
      assert.equal(revoked.status, 'revoked');
      assert.equal(revoked.revokedAt, at);
      assert.equal(revoked.rotation.inProgress, false);
      for (const secret of revoked.rotation.secrets) {
        assert.equal(secret.closedAt, at);
        assert.equal(secret.closedReason, 'revoked');
      }
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.revoked' });
      assert.deepEqual(items[0]?.after, { status: 'revoked', revokedAt: at });
    });

    it('leaves a secret closed by hand as it was', async () => {
      const { key } = await h.adminCreate({});
      const rotated = await h.service.rotateKey(ADMIN, key.id, { overlapDays: 2 }, FROM_IP);
      const old = rotated.key.rotation.secrets[1]!;
      h.clock.advance(HOUR);
      const closedAt = new Date(h.clock()).toISOString();
      await h.service.closeSecret(ADMIN, key.id, old.id, FROM_IP);
      h.clock.advance(HOUR);
      const revoked = await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      const kept = revoked.rotation.secrets.find((secret) => secret.id === old.id);
      assert.equal(kept?.closedAt, closedAt);
      assert.equal(kept?.closedReason, 'manual');
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.revoked' });
      assert.deepEqual(items[0]?.details, { closedSecretIds: [rotated.key.rotation.secrets[0]!.id] });
    });

    it('records an overlap that ended before the revoke as overlap_ended at closesAt, not as revoked', async () => {
      const { key } = await h.adminCreate({});
      const rotated = await h.service.rotateKey(ADMIN, key.id, { overlapDays: 1 }, FROM_IP);
      const [fresh, old] = rotated.key.rotation.secrets;
      h.clock.advance(2 * DAY);
      const revoked = await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      const at = new Date(h.clock()).toISOString();
      const byId = new Map(revoked.rotation.secrets.map((secret) => [secret.id, secret]));
      assert.equal(byId.get(old!.id)?.closedAt, old!.closesAt);
      assert.equal(byId.get(old!.id)?.closedReason, 'overlap_ended');
      assert.equal(byId.get(fresh!.id)?.closedAt, at);
      assert.equal(byId.get(fresh!.id)?.closedReason, 'revoked');
      const { items } = await h.service.getActivity(ADMIN, key.id);
      const summary = (action: string) =>
        items.filter((entry) => entry.action === action).map((entry) => [entry.actor.type, entry.details]);
      assert.deepEqual(summary('key.revoked'), [['admin', { closedSecretIds: [fresh!.id] }]]);
      assert.deepEqual(summary('key.secret_closed'), [
        ['system', { secretId: old!.id, reason: 'overlap_ended' }],
      ]);
      assert.deepEqual(await h.service.sweep(), { secretsClosed: 0, remindersWritten: 0 });
    });

    it('records nothing when the caller may not revoke the key', async () => {
      const manager = await h.adminCreate({ scopes: ['auth:rw', 'order:r'] });
      const { key } = await h.adminCreate({ scopes: ['stock:rw'] });
      await h.service.rotateKey(ADMIN, key.id, { overlapDays: 1 }, FROM_IP);
      h.clock.advance(2 * DAY);
      await rejectsWith(
        h.service.revokeKey(h.asKey(manager.key.id), key.id, FROM_IP),
        'ESCALATION_DENIED',
        'target_scopes',
      );
      const { items } = await h.service.getActivity(ADMIN, key.id, { action: 'key.secret_closed' });
      assert.deepEqual(items, []);
      assert.equal((await h.store.getKey(key.id))?.status, 'active');
    });

    it('refuses to revoke twice (409 KEY_NOT_ACTIVE)', async () => {
      const { key } = await h.adminCreate({});
      await h.service.revokeKey(ADMIN, key.id, FROM_IP);
      await rejectsWith(h.service.revokeKey(ADMIN, key.id, FROM_IP), 'KEY_NOT_ACTIVE');
    });
  });

  describe('with a concurrent writer', () => {
    /** A store whose commitChange reports a conflict the first `conflicts` times. */
    function conflicting(store: KeyStore, conflicts: number): KeyStore & { commits: number } {
      let left = conflicts;
      const wrapped = Object.create(store) as KeyStore & { commits: number };
      wrapped.commits = 0;
      wrapped.commitChange = async (change) => {
        wrapped.commits++;
        if (left-- > 0) return false;
        return store.commitChange(change);
      };
      return wrapped;
    }

    it('re-plans once on fresh state after a version conflict', async () => {
      const { key } = await h.adminCreate({});
      const store = conflicting(h.store, 1);
      const service = createKeyService({
        store,
        hasher: fakeHasher,
        events: createLocalKeyEvents(),
        clock: h.clock,
      });
      const changed = await service.changeScopes(ADMIN, key.id, ['order:r'], FROM_IP);
      assert.deepEqual(changed.scopes, ['order:r']);
      assert.equal(store.commits, 2);
    });

    it('answers 409 CONFLICT after a second conflict, publishing nothing', async () => {
      const { key } = await h.adminCreate({});
      const store = conflicting(h.store, 2);
      const events = createLocalKeyEvents();
      const published: string[] = [];
      events.subscribe((id) => published.push(id));
      const service = createKeyService({ store, hasher: fakeHasher, events, clock: h.clock });
      await rejectsWith(service.revokeKey(ADMIN, key.id, FROM_IP), 'CONFLICT');
      assert.deepEqual(published, []);
      assert.equal((await h.store.getKey(key.id))?.status, 'active');
    });

    it('sees a change made by another instance before deciding (revoked elsewhere → 409)', async () => {
      const { key } = await h.adminCreate({});
      const peer = h.openPeerService();
      await peer.service.revokeKey(ADMIN, key.id, FROM_IP);
      await rejectsWith(h.service.rotateKey(ADMIN, key.id, {}, FROM_IP), 'KEY_NOT_ACTIVE');
    });
  });

  describe('usage, logs and activity reads', () => {
    it('sums usage per secret over the default last 24 hours and refuses ranges over 31 days', async () => {
      const { key } = await h.adminCreate({});
      const secretId = key.rotation.secrets[0]!.id;
      const minute = Math.floor(h.clock() / 60_000) * 60_000;
      const histogram = new Array<number>(25).fill(0);
      histogram[6] = 4;
      const bucket = (m: number) => ({
        keyId: key.id,
        secretId,
        minute: m,
        calls: 4,
        errors4xx: 1,
        errors5xx: 1,
        latencyMsSum: 36,
        latencyHistogram: histogram,
        lastCallAt: new Date(m + 1000).toISOString(),
      });
      await h.store.recordUsage([bucket(minute - 60_000), bucket(minute - 2 * 86_400_000)]);
      const usage = await h.service.getUsage(ADMIN, key.id);
      assert.equal(usage.totals.calls, 4);
      assert.equal(usage.secrets[0]?.secretId, secretId);
      assert.deepEqual(usage.totals.latencyMs, { mean: 9, p50: 8.75, p95: 9.875, p99: 9.975 });
      const wide = await h.service.getUsage(ADMIN, key.id, { from: minute - 3 * 86_400_000, to: minute });
      assert.equal(wide.totals.calls, 8);
      await rejectsWith(
        h.service.getUsage(ADMIN, key.id, { from: 0, to: 32 * 86_400_000 }),
        'VALIDATION_FAILED',
      );
      await rejectsWith(h.service.getUsage(ADMIN, key.id, { from: minute, to: minute }), 'VALIDATION_FAILED');
      const view = await h.service.getKey(ADMIN, key.id);
      assert.equal(view.rotation.secrets[0]?.callCount, 8);
      assert.equal(view.lastCallAt, new Date(minute - 60_000 + 1000).toISOString());
    });

    it('turns a foreign cursor into 422 and lists activity of every key for administrators', async () => {
      const a = (await h.adminCreate({})).key;
      h.clock.advance(1000);
      const b = (await h.adminCreate({ environment: 'test' })).key;
      await rejectsWith(h.service.getLogs(ADMIN, a.id, { cursor: 'bogus' }), 'VALIDATION_FAILED');
      await rejectsWith(h.service.listActivity({ cursor: 'bogus' }), 'VALIDATION_FAILED');
      const all = await h.service.listActivity();
      assert.deepEqual(
        all.items.map((e) => e.keyId),
        [b.id, a.id],
      );
      assert.deepEqual(
        (await h.service.listActivity({ environment: 'live' })).items.map((e) => e.keyId),
        [a.id],
      );
    });
  });
});
