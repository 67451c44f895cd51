import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createKeyVerifier } from '../../../src/auth/key-verifier.ts';
import { GatewayError } from '../../../src/errors.ts';
import { createKeyService } from '../../../src/keys/key-service.ts';
import { createSecretTagger } from '../../../src/keys/secret-tag.ts';
import { checksumOf, parseToken, randomBase62 } from '../../../src/keys/token.ts';
import { createLocalKeyEvents } from '../../../src/model/events.ts';
import type { Actor } from '../../../src/model/model.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';
import { createTaggingHasher } from '../../support/counting-hasher.ts';

type Action =
  | { type: 'create' }
  | { type: 'rotate' | 'close' | 'revoke' | 'wrong'; key: number }
  | { type: 'garbage' }
  | { type: 'repeat'; token: number };

const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: fc.constant({ type: 'create' as const }), weight: 3 },
  ...(['rotate', 'close', 'revoke', 'wrong'] as const).map((type) => ({
    arbitrary: fc.nat(20).map((key) => ({ type, key })),
    weight: 2,
  })),
  { arbitrary: fc.constant({ type: 'garbage' as const }), weight: 2 },
  { arbitrary: fc.nat(50).map((token) => ({ type: 'repeat' as const, token })), weight: 3 },
);

/** The answer the reference model expects for a token: OK or the 401 code. */
type Answer = 'OK' | 'UNKNOWN_KEY' | 'KEY_REVOKED' | 'SECRET_CLOSED';

/** The reference model: keys with their secrets' tokens, and every token ever tried with its fate. */
interface ModelKey {
  id: string;
  revoked: boolean;
  /** Tokens of the key's secrets, oldest first, with whether each is closed. */
  secrets: Array<{ token: string; closed: boolean }>;
}

function expectedFor(token: string, keys: readonly ModelKey[]): Answer {
  for (const key of keys) {
    const secret = key.secrets.find((candidate) => candidate.token === token);
    if (!secret) continue;
    if (key.revoked) return 'KEY_REVOKED';
    return secret.closed ? 'SECRET_CLOSED' : 'OK';
  }
  return 'UNKNOWN_KEY';
}

function wrongTokenFor(token: string): string {
  const parsed = parseToken(token)!;
  const body = `${parsed.prefix}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

function garbageToken(): string {
  const body = `kg_live_${randomBase62(8)}_${randomBase62(22)}`;
  return body + checksumOf(body);
}

const ADMIN: Actor = { type: 'admin', id: 'prop' };
const CTX = { sourceIp: null };

/** Runs one sequence against the key service and verifier on a fresh SQLite file, checking every token after each step. */
async function runSequence(actions: readonly Action[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-prop-'));
  const store = openSqliteKeyStore(join(dir, 'gateway.db'));
  const events = createLocalKeyEvents();
  const hasher = createTaggingHasher(createSecretTagger(randomBytes(32)));
  const clock = () => Date.parse('2026-01-15T12:00:00.000Z');
  const service = createKeyService({ store, hasher, events, clock, config: {} });
  // Small bounds, so evictions from both caches happen within a sequence.
  const verifier = createKeyVerifier({
    store,
    hasher,
    events,
    clock,
    maxEntries: 4,
    negativeMaxEntries: 3,
  });
  const keys: ModelKey[] = [];
  const tried: string[] = [];
  const answerOf = async (token: string): Promise<Answer> => {
    try {
      await verifier.verify(token, parseToken(token)!);
      return 'OK';
    } catch (error) {
      assert.ok(error instanceof GatewayError, String(error));
      return error.code as Answer;
    }
  };
  try {
    for (const step of actions) {
      const key = 'key' in step ? keys[step.key % Math.max(1, keys.length)] : undefined;
      if (step.type === 'create') {
        const created = await service.createKey(
          ADMIN,
          { name: 'p', environment: 'live', scopes: ['article:r'] },
          CTX,
        );
        keys.push({
          id: created.key.id,
          revoked: false,
          secrets: [{ token: created.secret, closed: false }],
        });
        tried.push(created.secret);
      } else if (step.type === 'rotate' && key && !key.revoked) {
        if (key.secrets.filter((secret) => !secret.closed).length > 1) continue;
        const rotated = await service.rotateKey(ADMIN, key.id, { overlapDays: 1 }, CTX);
        key.secrets.push({ token: rotated.secret, closed: false });
        tried.push(rotated.secret);
      } else if (step.type === 'close' && key && !key.revoked) {
        if (key.secrets.filter((secret) => !secret.closed).length < 2) continue;
        await service.closeSecret(ADMIN, key.id, undefined, CTX);
        for (const secret of key.secrets.slice(0, -1)) secret.closed = true;
      } else if (step.type === 'revoke' && key && !key.revoked) {
        await service.revokeKey(ADMIN, key.id, CTX);
        key.revoked = true;
      } else if (step.type === 'wrong' && key) {
        tried.push(wrongTokenFor(key.secrets[0]!.token));
      } else if (step.type === 'garbage') {
        tried.push(garbageToken());
      } else if (step.type === 'repeat' && tried.length > 0) {
        tried.push(tried[step.token % tried.length]!);
      }
      for (const token of tried) {
        assert.equal(await answerOf(token), expectedFor(token, keys), `after ${JSON.stringify(step)}`);
      }
    }
  } finally {
    verifier.close();
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('properties: the key check against a reference model', () => {
  it('answers any sequence of create, rotate, close, revoke and garbage as the model does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), (actions) => runSequence(actions)),
      { numRuns: 60 },
    );
  });
});
