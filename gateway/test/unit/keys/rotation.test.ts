import assert from 'node:assert/strict';
import { parseToken } from '../../../src/keys/token.ts';
import { isSecretUsable } from '../../../src/model/lifecycle.ts';
import { ADMIN, createHarness, DAY, FROM_IP, type Harness, HOUR, rejectsWith } from './harness.ts';

describe('key rotation', () => {
  let h: Harness;
  afterEach(() => h.cleanup());

  async function rotatedKey(overlapDays: number, create: Record<string, unknown> = {}) {
    const created = await h.adminCreate(create);
    const rotated = await h.service.rotateKey(ADMIN, created.key.id, { overlapDays }, FROM_IP);
    const [fresh, old] = rotated.key.rotation.secrets;
    return { created, rotated, fresh: fresh!, old: old! };
  }

  describe('rotateKey', () => {
    beforeEach(() => {
      h = createHarness();
    });

    it('adds a new secret with the same permissions and keeps the old one open for the overlap', async () => {
      const { created, rotated, fresh, old } = await rotatedKey(3);
      assert.notEqual(rotated.secret, created.secret);
      assert.equal(rotated.key.prefix, parseToken(rotated.secret)?.prefix);
      assert.equal(fresh.prefix, rotated.key.prefix);
      assert.deepEqual(rotated.key.scopes, created.key.scopes);
      assert.equal(old.closesAt, new Date(h.clock() + 3 * DAY).toISOString());
      assert.equal(old.usable, true);
      assert.equal(rotated.key.rotation.inProgress, true);
      assert.equal(rotated.key.version, 2);
    });

    it('logs key.rotated with both secrets’ ids and times, never a token or hash', async () => {
      const { created, rotated } = await rotatedKey(2);
      const { items } = await h.service.getActivity(ADMIN, created.key.id, { action: 'key.rotated' });
      assert.equal(items.length, 1);
      assert.equal(items[0]?.sourceIp, '198.51.100.4');
      assert.equal(items[0]?.details.overlapDays, 2);
      const text = JSON.stringify(items);
      for (const forbidden of [created.secret, rotated.secret, 'fake$']) assert.ok(!text.includes(forbidden));
    });

    it('caps the overlap at the configured maximum', async () => {
      await h.cleanup();
      h = createHarness({ maxOverlapDays: 2 });
      const { old, rotated } = await rotatedKey(7);
      assert.equal(old.closesAt, new Date(h.clock() + 2 * DAY).toISOString());
      const { items } = await h.service.getActivity(ADMIN, rotated.key.id, { action: 'key.rotated' });
      assert.equal(items[0]?.details.overlapDays, 2);
    });

    it('refuses an overlap above 7 days or below 0 with 422', async () => {
      const { key } = await h.adminCreate({});
      await rejectsWith(h.service.rotateKey(ADMIN, key.id, { overlapDays: 8 }, FROM_IP), 'VALIDATION_FAILED');
      await rejectsWith(
        h.service.rotateKey(ADMIN, key.id, { overlapDays: -1 }, FROM_IP),
        'VALIDATION_FAILED',
      );
      await rejectsWith(
        h.service.rotateKey(ADMIN, key.id, { overlapDays: 1.5 }, FROM_IP),
        'VALIDATION_FAILED',
      );
    });

    it('defaults to a one-day overlap', async () => {
      const { key } = await h.adminCreate({});
      const rotated = await h.service.rotateKey(ADMIN, key.id, {}, FROM_IP);
      assert.equal(rotated.key.rotation.secrets[1]?.closesAt, new Date(h.clock() + DAY).toISOString());
    });

    it('never lets the overlap outlive the key’s expiry', async () => {
      // now 2025-03-01T12:00Z, key valid through 2025-03-02 → ends 2025-03-03T00:00Z, before now + 7 days.
      const { old } = await rotatedKey(7, { expiresAt: '2025-03-02' });
      assert.equal(old.closesAt, '2025-03-03T00:00:00.000Z');
    });

    it('closes the old secret at once with overlapDays 0', async () => {
      const { old, rotated } = await rotatedKey(0);
      assert.equal(old.usable, false);
      assert.equal(old.closedAt, new Date(h.clock()).toISOString());
      assert.equal(old.closedReason, 'manual');
      assert.equal(rotated.key.rotation.inProgress, false);
    });

    it('logs key.secret_closed (manual, by the rotating actor) after key.rotated for overlapDays 0', async () => {
      const { created, old } = await rotatedKey(0);
      const { items } = await h.service.getActivity(ADMIN, created.key.id);
      // Both entries carry the same instant; their order within it is not defined.
      assert.deepEqual(items.map((entry) => entry.action).sort(), [
        'key.created',
        'key.rotated',
        'key.secret_closed',
      ]);
      const closed = items.find((entry) => entry.action === 'key.secret_closed')!;
      assert.deepEqual(closed.actor, ADMIN);
      assert.equal(closed.sourceIp, FROM_IP.sourceIp);
      assert.deepEqual(closed.details, { secretIds: [old.id], reason: 'manual' });
      const after = (closed.after?.secrets ?? []) as Array<{ id: string; closedReason: string }>;
      assert.deepEqual(
        after.map((secret) => [secret.id, secret.closedReason]),
        [[old.id, 'manual']],
      );
      assert.deepEqual(await h.service.sweep(), { secretsClosed: 0, remindersWritten: 0 });
    });

    it('refuses a second rotation while the old secret is open (409 ROTATION_IN_PROGRESS)', async () => {
      const { created, old } = await rotatedKey(1);
      const error = await rejectsWith(
        h.service.rotateKey(ADMIN, created.key.id, {}, FROM_IP),
        'ROTATION_IN_PROGRESS',
      );
      assert.equal(error.status, 409);
      assert.equal(error.extensions.secretId, old.id);
    });

    it('allows the next rotation once the overlap has passed, even before any sweep', async () => {
      const { created } = await rotatedKey(1);
      h.clock.advance(DAY);
      const again = await h.service.rotateKey(ADMIN, created.key.id, {}, FROM_IP);
      assert.equal(again.key.rotation.secrets.filter((s) => s.usable).length, 2);
    });

    it('refuses to rotate a revoked or expired key (409 KEY_NOT_ACTIVE)', async () => {
      const { key } = await h.adminCreate({ expiresAt: '2025-03-01' });
      h.clock.advance(DAY);
      await rejectsWith(h.service.rotateKey(ADMIN, key.id, {}, FROM_IP), 'KEY_NOT_ACTIVE');
      const other = (await h.adminCreate({})).key;
      await h.service.revokeKey(ADMIN, other.id, FROM_IP);
      await rejectsWith(h.service.rotateKey(ADMIN, other.id, {}, FROM_IP), 'KEY_NOT_ACTIVE');
    });
  });

  describe('the old secret after closesAt', () => {
    beforeEach(() => {
      h = createHarness();
    });

    it('stops being usable at closesAt even though no sweep ran', async () => {
      const { created } = await rotatedKey(1);
      const lookup = parseToken(created.secret)!.lookup;
      const stored = (await h.store.findByLookup(lookup))!.secret;
      assert.equal(stored.closedAt, null);
      assert.equal(isSecretUsable(stored, h.clock() + DAY - 1), true);
      assert.equal(isSecretUsable(stored, h.clock() + DAY), false);
    });
  });

  describe('closeSecret', () => {
    beforeEach(() => {
      h = createHarness();
    });

    it('closes the old secret at once and logs key.secret_closed with reason manual', async () => {
      const { created, old } = await rotatedKey(5);
      h.clock.advance(HOUR);
      const key = await h.service.closeSecret(ADMIN, created.key.id, undefined, FROM_IP);
      const closed = key.rotation.secrets.find((s) => s.id === old.id);
      assert.equal(closed?.closedAt, new Date(h.clock()).toISOString());
      assert.equal(closed?.closedReason, 'manual');
      assert.equal(key.rotation.inProgress, false);
      const { items } = await h.service.getActivity(ADMIN, created.key.id, { action: 'key.secret_closed' });
      assert.equal(items.length, 1);
      assert.deepEqual(items[0]?.details, { secretIds: [old.id], reason: 'manual' });
    });

    it('closes a named old secret', async () => {
      const { created, old } = await rotatedKey(5);
      const key = await h.service.closeSecret(ADMIN, created.key.id, old.id, FROM_IP);
      assert.equal(key.rotation.inProgress, false);
    });

    it('answers 409 NO_ROTATION_IN_PROGRESS without an open old secret, and for the current secret', async () => {
      const { key } = await h.adminCreate({});
      await rejectsWith(h.service.closeSecret(ADMIN, key.id, undefined, FROM_IP), 'NO_ROTATION_IN_PROGRESS');
      const current = key.rotation.secrets[0]!.id;
      await rejectsWith(h.service.closeSecret(ADMIN, key.id, current, FROM_IP), 'NO_ROTATION_IN_PROGRESS');
      const { created } = await rotatedKey(1);
      await h.service.closeSecret(ADMIN, created.key.id, undefined, FROM_IP);
      await rejectsWith(
        h.service.closeSecret(ADMIN, created.key.id, undefined, FROM_IP),
        'NO_ROTATION_IN_PROGRESS',
      );
    });

    it('answers 404 SECRET_NOT_FOUND for a secret of another key', async () => {
      const { created } = await rotatedKey(1);
      await rejectsWith(
        h.service.closeSecret(ADMIN, created.key.id, 'sec_nope', FROM_IP),
        'SECRET_NOT_FOUND',
      );
    });
  });
});
