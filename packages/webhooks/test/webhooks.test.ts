import assert from 'node:assert/strict';
import {
  createWebhookHeaders,
  decodeWebhookSecret,
  generateWebhookSecret,
  InvalidWebhookSecretError,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.ts';

/** The published test vector of Standard Webhooks 1.0. */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const VECTOR_NOW = new Date(VECTOR.timestamp * 1000);

function vectorHeaders(signature = VECTOR.signature): Record<string, string> {
  return {
    'webhook-id': VECTOR.id,
    'webhook-timestamp': String(VECTOR.timestamp),
    'webhook-signature': signature,
  };
}

function assertRefused(work: () => unknown, code: string): void {
  assert.throws(work, (error: unknown) => {
    assert.ok(error instanceof WebhookVerificationError, String(error));
    assert.equal(error.code, code);
    return true;
  });
}

describe('@keygate/webhooks', () => {
  describe('signWebhook', () => {
    describe('with the specification’s test vector', () => {
      it('produces the published signature', () => {
        assert.equal(signWebhook(VECTOR.secret, VECTOR), VECTOR.signature);
      });
      it('signs bytes exactly as it signs the same text', () => {
        assert.equal(
          signWebhook(VECTOR.secret, { ...VECTOR, body: Buffer.from(VECTOR.body) }),
          VECTOR.signature,
        );
      });
    });
    describe('with two secrets', () => {
      it('joins one v1 signature per secret with a space, in order', () => {
        const other = generateWebhookSecret();
        const value = signWebhook([VECTOR.secret, other], VECTOR);
        const [first, second, ...rest] = value.split(' ');
        assert.equal(first, VECTOR.signature);
        assert.equal(second, signWebhook(other, VECTOR));
        assert.deepEqual(rest, []);
      });
    });
    describe('with no secret', () => {
      it('throws', () => {
        assert.throws(() => signWebhook([], VECTOR), RangeError);
      });
    });
    it('builds the three headers', () => {
      assert.deepEqual(createWebhookHeaders(VECTOR.secret, VECTOR), vectorHeaders());
    });
  });

  describe('secrets', () => {
    it('are whsec_ + base64 of 32 random bytes, different every time', () => {
      const a = generateWebhookSecret();
      const b = generateWebhookSecret();
      assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.equal(decodeWebhookSecret(a).length, 32);
      assert.notEqual(a, b);
    });
    it('decode with or without the prefix to the same key', () => {
      assert.deepEqual(decodeWebhookSecret(VECTOR.secret), decodeWebhookSecret(VECTOR.secret.slice(6)));
    });
    it('refuse text that is not base64', () => {
      for (const bad of ['whsec_', 'whsec_not base64!', '']) {
        assert.throws(() => decodeWebhookSecret(bad), InvalidWebhookSecretError, bad);
      }
    });
  });

  describe('verifyWebhook', () => {
    describe('with the specification’s test vector', () => {
      it('accepts it at its own timestamp and returns id, timestamp and the parsed body', () => {
        const verified = verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: VECTOR_NOW });
        assert.deepEqual(verified, {
          id: VECTOR.id,
          timestamp: VECTOR.timestamp,
          payload: { test: 2432232314 },
        });
      });
      it('accepts fetch Headers, mixed-case keys and a Buffer body', () => {
        const now = VECTOR_NOW;
        assert.equal(
          verifyWebhook(VECTOR.secret, new Headers(vectorHeaders()), VECTOR.body, { now }).id,
          VECTOR.id,
        );
        const upper = Object.fromEntries(
          Object.entries(vectorHeaders()).map(([k, v]) => [k.toUpperCase(), v]),
        );
        assert.equal(verifyWebhook(VECTOR.secret, upper, Buffer.from(VECTOR.body), { now }).id, VECTOR.id);
      });
      it('refuses a changed body, id or timestamp', () => {
        const now = VECTOR_NOW;
        assertRefused(
          () => verifyWebhook(VECTOR.secret, vectorHeaders(), '{"test": 2432232315}', { now }),
          'NO_MATCHING_SIGNATURE',
        );
        assertRefused(
          () =>
            verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-id': 'msg_other' }, VECTOR.body, {
              now,
            }),
          'NO_MATCHING_SIGNATURE',
        );
        const later = { ...vectorHeaders(), 'webhook-timestamp': String(VECTOR.timestamp + 1) };
        assertRefused(
          () => verifyWebhook(VECTOR.secret, later, VECTOR.body, { now }),
          'NO_MATCHING_SIGNATURE',
        );
      });
      it('refuses another secret', () => {
        assertRefused(
          () => verifyWebhook(generateWebhookSecret(), vectorHeaders(), VECTOR.body, { now: VECTOR_NOW }),
          'NO_MATCHING_SIGNATURE',
        );
      });
    });

    describe('with the timestamp tolerance', () => {
      const at = (seconds: number) => new Date((VECTOR.timestamp + seconds) * 1000);
      it('accepts exactly 300 s either way by default and refuses 301 s', () => {
        for (const offset of [-300, 300]) {
          verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: at(offset) });
        }
        assertRefused(
          () => verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: at(301) }),
          'TIMESTAMP_TOO_OLD',
        );
        assertRefused(
          () => verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { now: at(-301) }),
          'TIMESTAMP_TOO_NEW',
        );
      });
      it('uses toleranceSeconds when given', () => {
        const options = { now: at(11), toleranceSeconds: 10 };
        assertRefused(
          () => verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, options),
          'TIMESTAMP_TOO_OLD',
        );
        verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body, { ...options, toleranceSeconds: 11 });
      });
      it('checks against the system clock without now', () => {
        assertRefused(() => verifyWebhook(VECTOR.secret, vectorHeaders(), VECTOR.body), 'TIMESTAMP_TOO_OLD');
        const message = { id: 'msg_now', timestamp: Math.floor(Date.now() / 1000), body: '{}' };
        const headers = createWebhookHeaders(VECTOR.secret, message);
        assert.equal(verifyWebhook(VECTOR.secret, headers, message.body).id, 'msg_now');
      });
      it('refuses a timestamp that is not Unix seconds', () => {
        for (const bad of ['1614265330.5', '-1', 'soon', '1e9']) {
          assertRefused(
            () =>
              verifyWebhook(VECTOR.secret, { ...vectorHeaders(), 'webhook-timestamp': bad }, VECTOR.body, {
                now: VECTOR_NOW,
              }),
            'INVALID_TIMESTAMP',
          );
        }
      });
    });

    describe('during a secret rotation', () => {
      const oldSecret = VECTOR.secret;
      const newSecret = generateWebhookSecret();
      const both = vectorHeaders(signWebhook([newSecret, oldSecret], VECTOR));
      it('accepts a message signed with both secrets under either one, or both', () => {
        for (const secrets of [oldSecret, newSecret, [newSecret, oldSecret]]) {
          assert.equal(verifyWebhook(secrets, both, VECTOR.body, { now: VECTOR_NOW }).id, VECTOR.id);
        }
      });
      it('after the old secret is closed, accepts the new signature alone and refuses the old one', () => {
        const newOnly = vectorHeaders(signWebhook(newSecret, VECTOR));
        assert.equal(verifyWebhook(newSecret, newOnly, VECTOR.body, { now: VECTOR_NOW }).id, VECTOR.id);
        assertRefused(
          () => verifyWebhook(oldSecret, newOnly, VECTOR.body, { now: VECTOR_NOW }),
          'NO_MATCHING_SIGNATURE',
        );
      });
    });

    describe('with malformed headers', () => {
      it('refuses missing headers', () => {
        for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
          const headers: Record<string, string> = vectorHeaders();
          delete headers[name];
          assertRefused(
            () => verifyWebhook(VECTOR.secret, headers, VECTOR.body, { now: VECTOR_NOW }),
            'MISSING_HEADERS',
          );
        }
      });
      it('ignores other signature versions and garbage, but finds a valid v1 among them', () => {
        const value = VECTOR.signature.slice(3);
        const noisy = `v1a,${value} garbage v2,${value} ${VECTOR.signature}`;
        assert.equal(
          verifyWebhook(VECTOR.secret, vectorHeaders(noisy), VECTOR.body, { now: VECTOR_NOW }).id,
          VECTOR.id,
        );
        assertRefused(
          () =>
            verifyWebhook(VECTOR.secret, vectorHeaders(`v1a,${value} v1,${value.slice(1)}`), VECTOR.body, {
              now: VECTOR_NOW,
            }),
          'NO_MATCHING_SIGNATURE',
        );
      });
      it('refuses a matching signature that is not exactly 43 base64 characters plus =', () => {
        const value = VECTOR.signature.slice(3);
        const variants = [
          `${value}junk`,
          `${value}=`,
          value.slice(0, -1),
          `${value.slice(0, -2)}F=`,
          ` ${value}`.replace(' ', '\t'),
          value.replace('+', '-'),
        ];
        for (const variant of variants) {
          assertRefused(
            () =>
              verifyWebhook(VECTOR.secret, vectorHeaders(`v1,${variant}`), VECTOR.body, { now: VECTOR_NOW }),
            'NO_MATCHING_SIGNATURE',
          );
        }
      });
      it('refuses a correctly signed body that is not JSON', () => {
        const message = { id: 'msg_x', timestamp: VECTOR.timestamp, body: 'not json' };
        assertRefused(
          () =>
            verifyWebhook(VECTOR.secret, createWebhookHeaders(VECTOR.secret, message), message.body, {
              now: VECTOR_NOW,
            }),
          'INVALID_PAYLOAD',
        );
      });
    });
  });
});
