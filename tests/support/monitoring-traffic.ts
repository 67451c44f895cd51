import assert from 'node:assert/strict';
import { checksumOf } from '../../gateway/src/keys/token.ts';
import type { System } from './system.ts';

/** A token with a valid checksum for an existing key's prefix and a secret that is not its own. */
function wrongSecretFor(prefix: string): string {
  const body = `${prefix}_${'x'.repeat(22)}`;
  return body + checksumOf(body);
}

/**
 * Calls through the gateway that answer each way an operator watches: admitted (200), refused for
 * a wrong secret, a malformed token, no token (401), a missing scope (403), the rate limit (429),
 * and a test key forcing an upstream failure (502). Returns the live and the test key.
 */
export async function answerEveryWay(system: System) {
  const live = await system.createKey({ name: 'shop', env: 'live', scopes: ['article:r'] });
  const limited = await system.createKey({
    name: 'tight',
    env: 'live',
    scopes: ['article:r'],
    extra: ['--rate-limit', '1'],
  });
  const sandbox = await system.createKey({ name: 'sandbox', env: 'test', scopes: ['article:r'] });
  const calls: Array<[string | null, string, RequestInit?]> = [
    ...Array.from({ length: 20 }, (): [string, string] => [live.secret, '/v2/channels']),
    [live.secret, '/v2/carts', { method: 'POST' }],
    [wrongSecretFor(live.prefix), '/v2/channels'],
    ['kg_live_nonsense', '/v2/channels'],
    [null, '/v2/channels'],
    [limited.secret, '/v2/channels'],
    [limited.secret, '/v2/channels'],
    [sandbox.secret, '/v2/channels'],
    [sandbox.secret, '/v2/channels', { headers: { 'Keygate-Test-Scenario': 'upstream-unavailable' } }],
  ];
  const statuses = new Set<number>();
  for (const [secret, path, init] of calls) {
    const res = await system.call(secret, path, init);
    await res.arrayBuffer();
    statuses.add(res.status);
  }
  assert.deepEqual([...statuses].sort(), [200, 401, 403, 429, 502], 'the traffic holds each kind of answer');
  return { live, sandbox };
}
