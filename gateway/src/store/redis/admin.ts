import type { AdminSession } from '../../model/model.ts';
import type { AdminSessionMethods } from '../store.ts';
import type { RedisStoreContext } from './writes.ts';

const SESSION_FIELDS = [
  'userId',
  'email',
  'csrfToken',
  'createdAt',
  'lastSeenAt',
  'idleExpiresAt',
  'expiresAt',
] as const;

function sessionFromHash(tokenHash: string, hash: Record<string, string>): AdminSession | null {
  if (SESSION_FIELDS.some((field) => hash[field] === undefined)) return null;
  return {
    tokenHash,
    userId: hash.userId!,
    email: hash.email!,
    csrfToken: hash.csrfToken!,
    createdAt: Number(hash.createdAt),
    lastSeenAt: Number(hash.lastSeenAt),
    idleExpiresAt: Number(hash.idleExpiresAt),
    expiresAt: Number(hash.expiresAt),
  };
}

/**
 * Admin sessions and failed-login windows in Redis (names in keys.ts). Both expire through
 * key TTLs taken relative to the caller's times, so nothing needs pruning.
 */
export function createRedisAdminSessions(ctx: RedisStoreContext): AdminSessionMethods {
  const { client, scripts } = ctx;
  const names = ctx.layout.admin;
  return {
    async createAdminSession(session) {
      const ttl = Math.min(session.idleExpiresAt, session.expiresAt) - session.lastSeenAt;
      if (ttl <= 0) return;
      const { tokenHash, ...fields } = session;
      const key = names.adminSession(tokenHash);
      const results = await client.multi().hset(key, fields).pexpire(key, ttl).exec();
      const failed = results?.find(([error]) => error !== null);
      if (!results || failed) throw failed?.[0] ?? new Error('admin session not stored: transaction aborted');
    },
    async getAdminSession(tokenHash) {
      return sessionFromHash(tokenHash, await client.hgetall(names.adminSession(tokenHash)));
    },
    async touchAdminSession(tokenHash, lastSeenAt, idleExpiresAt) {
      return (
        (await scripts.touchAdminSession(1, names.adminSession(tokenHash), lastSeenAt, idleExpiresAt)) === 1
      );
    },
    async deleteAdminSession(tokenHash) {
      await client.del(names.adminSession(tokenHash));
    },
    async pruneAdminSessions() {
      return 0;
    },
    async countLoginFailure(subject, windowMs, nowMs) {
      const [count, ttl] = (await scripts.countLoginFailure(1, names.loginFailures(subject), windowMs)) as [
        number,
        number,
      ];
      return { count, resetAt: nowMs + ttl };
    },
    async readLoginFailures(subject, nowMs) {
      const found = (await scripts.readLoginFailures(1, names.loginFailures(subject))) as
        | [number, number]
        | null;
      if (!found || found[1] <= 0) return null;
      return { count: found[0], resetAt: nowMs + found[1] };
    },
    async clearLoginFailures(subject) {
      await client.del(names.loginFailures(subject));
    },
  };
}
