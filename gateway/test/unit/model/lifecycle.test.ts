import assert from 'node:assert/strict';
import { expiryEndMs, expiryReminder, isKeyExpired, isSecretUsable } from '../../../src/model/lifecycle.ts';

const at = (iso: string) => Date.parse(iso);

describe('key lifecycle helpers', () => {
  describe('isKeyExpired', () => {
    it('keeps a key valid through the last day, UTC, and expires it at the next midnight', () => {
      const key = { expiresAt: '2025-03-10' };
      assert.equal(expiryEndMs('2025-03-10'), at('2025-03-11T00:00:00.000Z'));
      assert.equal(isKeyExpired(key, at('2025-03-10T23:59:59.999Z')), false);
      assert.equal(isKeyExpired(key, at('2025-03-11T00:00:00.000Z')), true);
    });
    it('never expires a key without expiresAt', () => {
      assert.equal(isKeyExpired({ expiresAt: null }, at('2999-01-01T00:00:00Z')), false);
    });
  });

  describe('isSecretUsable', () => {
    it('accepts an open secret and one before its overlap end', () => {
      const now = at('2025-03-01T12:00:00Z');
      assert.equal(isSecretUsable({ closedAt: null, closesAt: null }, now), true);
      assert.equal(isSecretUsable({ closedAt: null, closesAt: '2025-03-01T12:00:00.001Z' }, now), true);
    });
    it('refuses a secret at or after its overlap end even if nothing closed it yet', () => {
      const now = at('2025-03-01T12:00:00Z');
      assert.equal(isSecretUsable({ closedAt: null, closesAt: '2025-03-01T12:00:00.000Z' }, now), false);
    });
    it('refuses a closed secret', () => {
      const now = at('2025-03-01T12:00:00Z');
      assert.equal(isSecretUsable({ closedAt: '2025-03-01T11:00:00Z', closesAt: null }, now), false);
    });
  });

  describe('expiryReminder', () => {
    const key = { expiresAt: '2025-03-10' };
    it('is null outside the lead time, without expiry and once expired', () => {
      assert.equal(expiryReminder(key, at('2025-03-03T23:59:59.999Z'), 7), null);
      assert.equal(expiryReminder({ expiresAt: null }, at('2025-03-09T00:00:00Z'), 7), null);
      assert.equal(expiryReminder(key, at('2025-03-11T00:00:00Z'), 7), null);
    });
    it('gives the days left, rounded up, inside the lead time', () => {
      assert.deepEqual(expiryReminder(key, at('2025-03-04T00:00:00Z'), 7), {
        expiresAt: '2025-03-10',
        daysLeft: 7,
      });
      assert.deepEqual(expiryReminder(key, at('2025-03-09T06:00:00Z'), 7), {
        expiresAt: '2025-03-10',
        daysLeft: 2,
      });
      assert.deepEqual(expiryReminder(key, at('2025-03-10T23:00:00Z'), 1), {
        expiresAt: '2025-03-10',
        daysLeft: 1,
      });
    });
  });
});
