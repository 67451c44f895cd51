import { setTimeout as sleep } from 'node:timers/promises';
import { type KeygateClient, unwrap } from '@keygate/client';

export interface RotationPlan {
  /** Days the old secret keeps working if it is never closed by hand (default 7). */
  overlapDays?: number;
  /** The old secret counts as retired once it has not been used for this long (default 15 min). */
  quietMs?: number;
  /** How often to look at the old secret's call count and last call (default 1 min). */
  pollMs?: number;
  /** Give up waiting after this long and leave the old secret to expire on its own (default 1 day). */
  timeoutMs?: number;
  /** Where progress goes (default console.log). */
  log?: (message: string) => void;
}

/**
 * Rotates a key without downtime: (1) rotate, which adds a new secret while the old one keeps
 * working; (2) deploy the new secret everywhere (`deploy`); (3) watch the old secret's call count
 * and last call until nothing has used it for `quietMs`; (4) close the old secret. If some
 * forgotten deployment still uses the old secret, it is left open until the overlap ends.
 */
export async function rotateWithoutDowntime(
  admin: KeygateClient,
  keyId: string,
  deploy: (secret: string) => Promise<void>,
  plan: RotationPlan = {},
) {
  const { overlapDays = 7, quietMs = 15 * 60_000, pollMs = 60_000, timeoutMs = 86_400_000 } = plan;
  const log = plan.log ?? console.log;
  const rotated = await unwrap(
    admin.POST('/v2/auth/keys/{id}:rotate', { params: { path: { id: keyId } }, body: { overlapDays } }),
  );
  const [fresh, ...older] = rotated.rotation.secrets;
  const old = older.find((secret) => secret.usable);
  await deploy(rotated.secret);
  if (!fresh || !old) return { closed: true, newSecretId: fresh?.id };

  // Quiet = no new call counted since the previous look, and the last call is `quietMs` old.
  const deadline = Date.now() + timeoutMs;
  let previousCount = -1;
  for (;;) {
    const key = await unwrap(admin.GET('/v2/auth/keys/{id}', { params: { path: { id: keyId } } }));
    const seen = key.rotation.secrets.find((secret) => secret.id === old.id);
    if (!seen?.usable) return { closed: true, newSecretId: fresh.id }; // closed meanwhile
    const lastCall = seen.lastCallAt === null ? 0 : Date.parse(seen.lastCallAt);
    if (seen.callCount === previousCount && Date.now() - lastCall >= quietMs) break;
    if (Date.now() > deadline) return { closed: false, newSecretId: fresh.id };
    log(`old secret ${seen.prefix}: ${seen.callCount} calls, last at ${seen.lastCallAt}`);
    previousCount = seen.callCount;
    await sleep(pollMs);
  }
  await unwrap(
    admin.POST('/v2/auth/keys/{id}:close-old-secret', {
      params: { path: { id: keyId } },
      body: { secretId: old.id },
    }),
  );
  return { closed: true, newSecretId: fresh.id };
}
