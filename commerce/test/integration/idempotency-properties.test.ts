import assert from 'node:assert/strict';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS } from '@keygate/contracts/idempotency';
import fc from 'fast-check';
import { createTestApp, TEST_NOW } from '../support/app.ts';

/** A request of the sequence: which API key sends it, under which idempotency key (or none), with which body. */
interface Send {
  kind: 'send';
  apiKey: number;
  key: number | null;
  body: number;
}
interface Advance {
  kind: 'advance';
  ms: number;
}
type Step = Send | Advance;

const BODIES = ['{"channel":"WEB_DE"}', '{"channel":"WEB_CH"}'];
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('send' as const),
      apiKey: fc.nat(1),
      key: fc.option(fc.nat(2), { freq: 5 }),
      body: fc.nat(1),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(1000, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS / 2, IDEMPOTENCY_RETENTION_MS),
    }),
  },
);

/** What the reference model remembers per (API key, idempotency key). */
interface Remembered {
  body: number;
  cartId: string;
  expiresAt: number;
}

describe('properties: Idempotency-Key on commerce against a reference model', () => {
  it('every answer and the number of carts made follow the model, for any sequence of requests', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        let now = TEST_NOW.getTime();
        const t = await createTestApp({ clock: () => new Date(now) });
        try {
          const model = new Map<string, Remembered>();
          let made = 0;
          for (const s of steps) {
            if (s.kind === 'advance') {
              now += s.ms;
              continue;
            }
            const headers: Record<string, string> = s.key === null ? {} : { 'Idempotency-Key': `k${s.key}` };
            const res = await t.post('/v2/carts', BODIES[s.body], { keyId: `key_${s.apiKey}`, headers });
            const slot = `${s.apiKey}/${s.key}`;
            const remembered = s.key === null ? undefined : model.get(slot);
            const live = remembered && remembered.expiresAt > now ? remembered : undefined;
            if (live && live.body !== s.body) {
              assert.equal(res.status, 422);
              assert.equal(res.body.code, 'IDEMPOTENCY_KEY_REUSED');
            } else if (live) {
              assert.equal(res.status, 201);
              assert.equal(res.headers['idempotent-replayed'], 'true');
              assert.equal(res.body.id, live.cartId);
            } else {
              assert.equal(res.status, 201, res.text);
              assert.equal(res.headers['idempotent-replayed'], undefined);
              made++;
              if (s.key !== null) {
                model.set(slot, {
                  body: s.body,
                  cartId: res.body.id,
                  expiresAt: now + IDEMPOTENCY_RETENTION_MS,
                });
              }
            }
          }
          const carts = t.db.sqlite.prepare('SELECT count(*) AS n FROM carts').get() as { n: number };
          assert.equal(carts.n, made);
        } finally {
          t.close();
        }
      }),
      { numRuns: 40 },
    );
  });
});
