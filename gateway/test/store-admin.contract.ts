import assert from 'node:assert/strict';
import type { AdminSession } from '../src/model/model.ts';
import type { KeyStore } from '../src/store/store.ts';
import { eventually, type StoreFixture } from './store.contract.ts';

const MINUTE = 60_000;
let counter = 0;

function makeSession(over: Partial<AdminSession> = {}): AdminSession {
  const now = Date.now();
  return {
    tokenHash: `${(++counter).toString(16).padStart(8, '0')}${'ab'.repeat(28)}`,
    userId: 'adm_1',
    email: 'ops@example.com',
    csrfToken: `csrf-${counter}`,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: now + 30 * MINUTE,
    expiresAt: now + 12 * 60 * MINUTE,
    ...over,
  };
}

/**
 * Admin sessions and the failed-login counter, as every KeyStore backend must keep them. Times
 * follow the wall clock: Redis expires keys by its own clock, so windows are real (and short).
 */
export function describeAdminSessionContract(
  current: () => { fixture: StoreFixture; store: KeyStore },
): void {
  describe('admin sessions', () => {
    it('stores a session under its token hash and reads it back whole', async () => {
      const { store } = current();
      const session = makeSession();
      await store.createAdminSession(session);
      assert.deepEqual(await store.getAdminSession(session.tokenHash), session);
      assert.equal(await store.getAdminSession('f'.repeat(64)), null);
    });

    it('slides the idle expiry of a session that exists, and never recreates a deleted one', async () => {
      const { store } = current();
      const session = makeSession();
      await store.createAdminSession(session);
      const later = session.lastSeenAt + MINUTE;
      assert.equal(await store.touchAdminSession(session.tokenHash, later, later + 30 * MINUTE), true);
      const touched = await store.getAdminSession(session.tokenHash);
      assert.equal(touched?.lastSeenAt, later);
      assert.equal(touched?.idleExpiresAt, later + 30 * MINUTE);
      assert.equal(touched?.expiresAt, session.expiresAt);
      await store.deleteAdminSession(session.tokenHash);
      assert.equal(await store.getAdminSession(session.tokenHash), null);
      assert.equal(await store.touchAdminSession(session.tokenHash, later, later + 30 * MINUTE), false);
      assert.equal(await store.getAdminSession(session.tokenHash), null);
      await store.deleteAdminSession(session.tokenHash);
    });

    it('is seen, and its deletion too, through another connection', async () => {
      const { fixture, store } = current();
      const peer = await fixture.openPeer();
      try {
        const session = makeSession();
        await store.createAdminSession(session);
        assert.deepEqual(await peer.getAdminSession(session.tokenHash), session);
        await peer.deleteAdminSession(session.tokenHash);
        assert.equal(await store.getAdminSession(session.tokenHash), null);
      } finally {
        await peer.close();
      }
    });

    it('drops sessions that ended when pruned and keeps live ones', async () => {
      const { store } = current();
      const now = Date.now();
      const ended = makeSession({ lastSeenAt: now, idleExpiresAt: now });
      const live = makeSession();
      await store.createAdminSession(ended);
      await store.createAdminSession(live);
      await store.pruneAdminSessions(now);
      assert.equal(await store.getAdminSession(ended.tokenHash), null);
      assert.deepEqual(await store.getAdminSession(live.tokenHash), live);
    });
  });

  describe('failed-login counter', () => {
    it('counts failures per subject inside one window and reads the count back', async () => {
      const { store } = current();
      const now = Date.now();
      const first = await store.countLoginFailure('email:a@example.com', 15 * MINUTE, now);
      const second = await store.countLoginFailure('email:a@example.com', 15 * MINUTE, now);
      assert.equal(first.count, 1);
      assert.equal(second.count, 2);
      assert.ok(second.resetAt > now && second.resetAt <= now + 15 * MINUTE);
      assert.ok(Math.abs(second.resetAt - first.resetAt) < 1000, 'the window moved with the second failure');
      assert.equal((await store.readLoginFailures('email:a@example.com', now))?.count, 2);
      assert.equal((await store.countLoginFailure('ip:203.0.113.7', 15 * MINUTE, now)).count, 1);
      assert.equal(await store.readLoginFailures('email:b@example.com', now), null);
    });

    it('counts concurrent failures atomically', async () => {
      const { store } = current();
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.countLoginFailure('ip:198.51.100.1', MINUTE, now)),
      );
      assert.deepEqual(
        results.map((r) => r.count).sort((a, b) => a - b),
        Array.from({ length: 20 }, (_, i) => i + 1),
      );
    });

    it('forgets the count when cleared, and for every connection', async () => {
      const { fixture, store } = current();
      const peer = await fixture.openPeer();
      try {
        const now = Date.now();
        await store.countLoginFailure('email:c@example.com', MINUTE, now);
        assert.equal((await peer.countLoginFailure('email:c@example.com', MINUTE, now)).count, 2);
        await peer.clearLoginFailures('email:c@example.com');
        assert.equal(await store.readLoginFailures('email:c@example.com', now), null);
      } finally {
        await peer.close();
      }
    });

    it('starts a new window at 1 once the last one ended', async () => {
      const { store } = current();
      await store.countLoginFailure('email:d@example.com', 40, Date.now());
      await store.countLoginFailure('email:d@example.com', 40, Date.now());
      assert.ok(
        await eventually(
          async () => (await store.readLoginFailures('email:d@example.com', Date.now())) === null,
        ),
        'the window did not end',
      );
      assert.equal((await store.countLoginFailure('email:d@example.com', 40, Date.now())).count, 1);
    });
  });
}
