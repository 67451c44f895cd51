import assert from 'node:assert/strict';
import { QUIET_MINUTES, rotationState } from '../src/rotation.ts';
import type { PublicKey, PublicSecret } from '../src/types.ts';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function secret(prefix: string, patch: Partial<PublicSecret> = {}): PublicSecret {
  return {
    id: `sec_${prefix}`,
    prefix,
    createdAt: minutesAgo(600),
    closesAt: null,
    closedAt: null,
    closedReason: null,
    usable: true,
    callCount: 0,
    lastCallAt: null,
    ...patch,
  };
}

function key(secrets: PublicSecret[], inProgress = true): PublicKey {
  return {
    id: 'key_1',
    name: 'shop',
    environment: 'live',
    scopes: ['article:r'],
    expiresAt: null,
    ipAllowlist: [],
    rateLimit: { perMinute: 600 },
    prefix: secrets[0]?.prefix ?? '',
    status: 'active',
    revokedAt: null,
    expired: false,
    expiryReminder: null,
    lastCallAt: null,
    createdAt: minutesAgo(900),
    updatedAt: minutesAgo(60),
    version: 2,
    identityId: null,
    planId: null,
    limits: [],
    quotas: [],
    credits: null,
    rotation: { inProgress, secrets },
  };
}

describe('rotationState', () => {
  const rotatedAt = minutesAgo(60);
  const current = secret('kg_live_new', { createdAt: rotatedAt, callCount: 5, lastCallAt: minutesAgo(1) });

  it('is null without a rotation in progress', () => {
    assert.equal(rotationState(key([current], false), NOW), null);
  });

  it('calls the old secret safe to close when it saw no call since the rotation', () => {
    const old = secret('kg_live_old', { callCount: 40, lastCallAt: minutesAgo(61) });
    const state = rotationState(key([current, old]), NOW);
    assert.equal(state?.safeToClose, true);
    assert.match(state?.hint ?? '', /kg_live_old: zero calls since the rotation\. Safe to close\./);
    assert.deepEqual(
      state?.old.map((s) => s.prefix),
      ['kg_live_old'],
    );
  });

  it(`calls it safe once it has been quiet for ${QUIET_MINUTES} minutes`, () => {
    const old = secret('kg_live_old', { callCount: 40, lastCallAt: minutesAgo(QUIET_MINUTES + 5) });
    const state = rotationState(key([current, old]), NOW);
    assert.equal(state?.safeToClose, true);
    assert.match(state?.hint ?? '', /quiet for 35 min\. Safe to close\./);
  });

  it('says not yet while the old secret is still used', () => {
    const old = secret('kg_live_old', { callCount: 40, lastCallAt: minutesAgo(2) });
    const state = rotationState(key([current, old]), NOW);
    assert.equal(state?.safeToClose, false);
    assert.match(state?.hint ?? '', /still in use \(last call 2 min ago\)\. Not safe to close yet/);
  });

  it('ignores secrets that no longer authenticate', () => {
    const closed = secret('kg_live_closed', {
      usable: false,
      closedReason: 'manual',
      lastCallAt: minutesAgo(1),
    });
    const old = secret('kg_live_old', { lastCallAt: null });
    const state = rotationState(key([current, old, closed]), NOW);
    assert.deepEqual(
      state?.old.map((s) => s.prefix),
      ['kg_live_old'],
    );
    assert.equal(state?.safeToClose, true);
  });
});
