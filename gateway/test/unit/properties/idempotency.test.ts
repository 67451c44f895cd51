import assert from 'node:assert/strict';
import {
  doneRecord,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  type StoredAnswer,
} from '@keygate/contracts/idempotency';
import fc from 'fast-check';
import { type Claim, claimIdempotencyKey, settleIdempotencyKey } from '../../../src/idempotency/claim-key.ts';
import { openSqliteKeyStore } from '../../../src/store/sqlite/sqlite-store.ts';

type Step =
  | { kind: 'claim'; apiKey: number; key: number; body: number }
  | { kind: 'settle'; claim: number; status: number }
  | { kind: 'advance'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('claim' as const),
      apiKey: fc.nat(1),
      key: fc.nat(2),
      body: fc.nat(1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      claim: fc.nat(20),
      status: fc.constantFrom(200, 201, 404, 422, 403, 500, 503),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(1000, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS),
    }),
  },
);

/** The reference model's record: written plainly, without the shared decision function. */
type ModelRecord =
  | { state: 'running'; body: number; leaseUntil: number; expiresAt: number; owner: number }
  | { state: 'done'; body: number; status: number; expiresAt: number };

describe('properties: Idempotency-Key claims on the SQLite key store against a reference model', () => {
  it('every decision follows the model, for any interleaving of claims, answers and time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
        const store = openSqliteKeyStore(':memory:');
        try {
          let now = Date.parse('2026-01-15T12:00:00.000Z');
          const model = new Map<string, ModelRecord>();
          const claims: Array<{ claim: Claim; slot: string; body: number }> = [];
          const settled = new Set<number>();
          for (const s of steps) {
            if (s.kind === 'advance') {
              now += s.ms;
            } else if (s.kind === 'claim') {
              const slot = `key_${s.apiKey} k${s.key}`;
              const decision = await claimIdempotencyKey(
                store,
                { keyId: `key_${s.apiKey}`, keyHash: `k${s.key}`, fingerprint: `fp${s.body}` },
                now,
              );
              const record = model.get(slot);
              const live = record && record.expiresAt > now ? record : undefined;
              if (live && live.body !== s.body) assert.equal(decision.kind, 'reused');
              else if (live?.state === 'done') {
                assert.equal(decision.kind, 'replay');
                assert.equal(decision.kind === 'replay' && decision.answer.status, live.status);
              } else if (live?.state === 'running' && live.leaseUntil > now) {
                assert.equal(decision.kind, 'in-flight');
              } else {
                assert.equal(decision.kind, 'run');
                assert.ok(decision.claim);
                claims.push({ claim: decision.claim, slot, body: s.body });
                model.set(slot, {
                  state: 'running',
                  body: s.body,
                  leaseUntil: now + IDEMPOTENCY_LEASE_MS,
                  expiresAt: now + IDEMPOTENCY_RETENTION_MS,
                  owner: claims.length - 1,
                });
              }
            } else {
              // A request answers once: a claim is settled at most once.
              const held = claims[s.claim];
              if (!held || settled.has(s.claim)) continue;
              settled.add(s.claim);
              const answer: StoredAnswer = { status: s.status, headers: {}, body: '{}' };
              const kept = s.status < 500 && s.status !== 403;
              await settleIdempotencyKey(
                store,
                held.claim,
                kept ? doneRecord(`fp${held.body}`, answer, now) : null,
                now,
              );
              const record = model.get(held.slot);
              if (record?.state === 'running' && record.owner === s.claim) {
                if (kept) {
                  model.set(held.slot, {
                    state: 'done',
                    body: held.body,
                    status: s.status,
                    expiresAt: now + IDEMPOTENCY_RETENTION_MS,
                  });
                } else {
                  model.delete(held.slot);
                }
              }
            }
          }
        } finally {
          await store.close();
        }
      }),
      { numRuns: 300 },
    );
  });
});
