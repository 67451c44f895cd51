import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createIdentitySigner,
  createIdentityVerifier,
  generateIdentityKeyPair,
  IDENTITY_ALGORITHMS,
  IdentityError,
  type IdentityKeyPair,
  type RequestIdentity,
} from '@keygate/identity';
import {
  createGatewayIdentitySigner,
  type SyncIdentitySigner,
} from '../../../src/identity/identity-signer.ts';

const NOW = Date.parse('2026-01-15T12:00:00.750Z');
const IAT = Math.floor(NOW / 1000);
const IDENTITY: RequestIdentity = {
  keyId: 'key_abc',
  environment: 'live',
  scopes: ['article:r', 'order:rw'],
  secretId: 'sec_abc',
  method: 'POST',
  path: '/v2/carts/c1/items?x=1',
  requestId: 'req_abc',
};
const REQUEST = { method: IDENTITY.method, path: IDENTITY.path };

/** The decoded header and payload of a compact JWS. */
function decode(token: string): { header: unknown; payload: Record<string, unknown> } {
  const [header, payload] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header ?? '', 'base64url').toString('utf8')),
    payload: JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')),
  };
}

/** What a compact JWS signs (header.payload): ES256 signatures differ each time, EdDSA's do not. */
function signedPart(token: string): string {
  return token.split('.').slice(0, 2).join('.');
}

/** Replaces one part of a compact JWS. */
function withPart(token: string, index: number, part: string): string {
  const parts = token.split('.');
  parts[index] = part;
  return parts.join('.');
}

/** An assertion signed with `signOffThread`, as a promise. */
function signOffThread(signer: SyncIdentitySigner, identity: RequestIdentity): Promise<string> {
  return new Promise((resolve, reject) =>
    signer.signOffThread(identity, 'commerce', (error, token) => (error ? reject(error) : resolve(token))),
  );
}

const SIGNER_URL = new URL('../../../src/identity/identity-signer.ts', import.meta.url).href;

/**
 * Runs a node process that signs one assertion off-thread, closing the signer afterwards or not (it
 * prints 'signed', then 'closed'), and resolves once it exits by itself (execFile kills it, failing the test, if it is still alive after 10 s).
 */
function runSignerScript(closing: boolean) {
  const script = `
    import { generateKeyPairSync } from 'node:crypto';
    const { createGatewayIdentitySigner } = await import(${JSON.stringify(SIGNER_URL)});
    const { privateKey } = generateKeyPairSync('ed25519');
    const signer = createGatewayIdentitySigner({ privateJwk: { ...privateKey.export({ format: 'jwk' }), kid: 'k1' } });
    const identity = ${JSON.stringify(IDENTITY)};
    // The worker is unref'd: something else (a server, here a timer) keeps the process alive meanwhile.
    const alive = setTimeout(() => {}, 60_000);
    signer.signOffThread(identity, 'commerce', (error, token) => {
      clearTimeout(alive);
      console.log(error ? error.message : token.split('.').length === 3 ? 'signed' : token);
      if (${closing}) signer.close().then(() => console.log('closed'));
    });
  `;
  // A file, not --input-type=module -e: the worker would inherit --input-type and refuse to start.
  const file = join(mkdtempSync(join(tmpdir(), 'keygate-signer-')), 'sign-once.mjs');
  writeFileSync(file, script);
  return promisify(execFile)(process.execPath, [file], { timeout: 10_000 });
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => error instanceof IdentityError && error.code === code);
}

for (const algorithm of IDENTITY_ALGORITHMS) {
  describe(`createGatewayIdentitySigner (${algorithm})`, () => {
    let pair: IdentityKeyPair;
    before(async () => {
      pair = await generateIdentityKeyPair(algorithm);
    });
    const verifierFor = (keys: { keys: IdentityKeyPair['publicJwk'][] }, audience = 'commerce', now = NOW) =>
      createIdentityVerifier({ keys, audience, now: () => now });

    describe(`with an ${algorithm} key`, () => {
      it('publishes the public key only, with its kid', () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk });
        assert.deepEqual(signer.jwks, { keys: [pair.publicJwk] });
        assert.equal(signer.jwks.keys[0]?.d, undefined);
      });

      it('signs assertions the identity verifier accepts with its JWKS, carrying the identity', async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const token = await signer.sign(IDENTITY, 'commerce');
        assert.deepEqual(await verifierFor(signer.jwks).verify(token, REQUEST), IDENTITY);
      });

      it('signs the same verifiable assertion inline (signNow) and in its worker (signOffThread)', async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const inline = signer.signNow(IDENTITY, 'commerce');
        const offThread = await signOffThread(signer, IDENTITY);
        await signer.close();
        const viaPromise = await signer.sign(IDENTITY, 'commerce');
        assert.equal(signedPart(offThread), signedPart(inline));
        assert.equal(signedPart(viaPromise), signedPart(inline));
        // Ed25519 signatures are deterministic: the same input gives the same token either way.
        if (algorithm === 'EdDSA') assert.equal(offThread, inline);
        for (const token of [inline, offThread, viaPromise]) {
          assert.deepEqual(await verifierFor(signer.jwks).verify(token, REQUEST), IDENTITY);
        }
      });

      it('gives each of many concurrent off-thread signatures its own assertion', async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const identities = Array.from({ length: 50 }, (_, index) => ({
          ...IDENTITY,
          path: `/v2/orders/o${index}`,
          requestId: `req_${index}`,
        }));
        // Two event-loop turns: two batches, in flight together.
        const first = Promise.all(identities.slice(0, 30).map((identity) => signOffThread(signer, identity)));
        await new Promise(setImmediate);
        const second = Promise.all(identities.slice(30).map((identity) => signOffThread(signer, identity)));
        const tokens = [...(await first), ...(await second)];
        await signer.close();
        const verifier = verifierFor(signer.jwks);
        for (const [index, identity] of identities.entries()) {
          const token = tokens[index]!;
          assert.equal(signedPart(token), signedPart(signer.signNow(identity, 'commerce')));
          assert.deepEqual(
            await verifier.verify(token, { method: identity.method, path: identity.path }),
            identity,
          );
        }
      });

      it('signs inline what its worker lost when it died mid-batch: no request fails for it', async () => {
        let killed = 0;
        const signer = createGatewayIdentitySigner({
          privateJwk: pair.privateJwk,
          now: () => NOW,
          onWorkerStart(worker) {
            if (killed++ > 0) return;
            const post = worker.postMessage.bind(worker);
            worker.postMessage = (inputs: string[]) => {
              post(inputs);
              void worker.terminate();
            };
          },
        });
        const identities = Array.from({ length: 40 }, (_, index) => ({
          ...IDENTITY,
          requestId: `req_${index}`,
        }));
        const tokens = await Promise.all(identities.map((identity) => signOffThread(signer, identity)));
        const later = await signOffThread(signer, IDENTITY);
        await signer.close();
        assert.equal(killed, 2, 'the next batch started a new worker');
        const verifier = verifierFor(signer.jwks);
        for (const [index, identity] of identities.entries()) {
          const token = tokens[index]!;
          assert.equal(
            signedPart(token),
            signedPart(signer.signNow(identity, 'commerce')),
            `assertion ${index}`,
          );
          assert.equal((await verifier.verify(token, REQUEST)).requestId, identity.requestId);
        }
        assert.equal(signedPart(later), signedPart(signer.signNow(IDENTITY, 'commerce')));
      });

      it('starts its worker on warmUp, before the first off-thread signature', async () => {
        const started: unknown[] = [];
        const signer = createGatewayIdentitySigner({
          privateJwk: pair.privateJwk,
          now: () => NOW,
          onWorkerStart: (worker) => started.push(worker),
        });
        signer.warmUp();
        signer.warmUp();
        assert.equal(started.length, 1);
        await signOffThread(signer, IDENTITY);
        await signer.close();
        assert.equal(started.length, 1, 'the warmed-up worker signed the first batch');
      });

      it('fails off-thread signatures once closed, and inline ones still work', async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        await signer.close();
        await assert.rejects(signOffThread(signer, IDENTITY), /closed/);
        assert.equal(decode(signer.signNow(IDENTITY, 'commerce')).payload.jti, 'req_abc');
      });

      for (const closing of [true, false]) {
        it(`lets the process exit after signing off-thread${closing ? ', once closed' : " (the worker is unref'd)"}`, async () => {
          const { stdout } = await runSignerScript(closing);
          assert.deepEqual(stdout.trim().split('\n'), closing ? ['signed', 'closed'] : ['signed']);
        });
      }

      it('carries every claim, exp at iat + the default 60 s ttl', async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const { payload } = decode(await signer.sign(IDENTITY, 'commerce'));
        assert.deepEqual(payload, {
          env: 'live',
          scp: ['article:r', 'order:rw'],
          sid: 'sec_abc',
          htm: 'POST',
          htp: '/v2/carts/c1/items?x=1',
          iss: 'keygate',
          sub: 'key_abc',
          aud: 'commerce',
          jti: 'req_abc',
          iat: IAT,
          exp: IAT + 60,
        });
      });

      it('honours ttlSeconds and issuer, and the assertion expires after the ttl', async () => {
        const signer = createGatewayIdentitySigner({
          privateJwk: pair.privateJwk,
          ttlSeconds: 30,
          issuer: 'keygate-eu',
          now: () => NOW,
        });
        const token = await signer.sign(IDENTITY, 'commerce');
        const { payload } = decode(token);
        assert.equal(payload.iss, 'keygate-eu');
        assert.equal(payload.exp, IAT + 30);
        const verifier = (now: number) =>
          createIdentityVerifier({
            keys: signer.jwks,
            audience: 'commerce',
            issuer: 'keygate-eu',
            now: () => now,
          });
        assert.equal((await verifier(NOW + 25_000).verify(token, REQUEST)).keyId, 'key_abc');
        await rejectsWithCode(verifier((IAT + 30 + 6) * 1000).verify(token, REQUEST), 'IDENTITY_EXPIRED');
      });

      it('reads the clock at each signature', async () => {
        let now = NOW;
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => now });
        const first = decode(await signer.sign(IDENTITY, 'commerce')).payload;
        now += 10_000;
        const second = decode(await signer.sign({ ...IDENTITY, requestId: 'req_2' }, 'commerce')).payload;
        assert.equal(second.iat, Number(first.iat) + 10);
        assert.equal(second.exp, Number(first.exp) + 10);
      });
    });

    describe('with a tampered or misdirected assertion', () => {
      let token: string;
      beforeEach(async () => {
        const signer = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        token = await signer.sign(IDENTITY, 'commerce');
      });

      it('refuses a payload changed after signing', async () => {
        const { payload } = decode(token);
        const forged = Buffer.from(JSON.stringify({ ...payload, scp: ['auth:rw'] })).toString('base64url');
        await rejectsWithCode(
          verifierFor({ keys: [pair.publicJwk] }).verify(withPart(token, 1, forged), REQUEST),
          'IDENTITY_INVALID',
        );
      });

      it('refuses a changed signature', async () => {
        const signature = Buffer.from(token.split('.')[2] ?? '', 'base64url');
        signature[0] = (signature[0] ?? 0) ^ 0xff;
        await rejectsWithCode(
          verifierFor({ keys: [pair.publicJwk] }).verify(
            withPart(token, 2, signature.toString('base64url')),
            REQUEST,
          ),
          'IDENTITY_INVALID',
        );
      });

      it('refuses it for another audience', async () => {
        await rejectsWithCode(
          verifierFor({ keys: [pair.publicJwk] }, 'billing').verify(token, REQUEST),
          'IDENTITY_WRONG_AUDIENCE',
        );
      });

      it('refuses it against another key pair with the same kid', async () => {
        const other = await generateIdentityKeyPair(algorithm);
        const impostor = { ...other.publicJwk, kid: pair.publicJwk.kid };
        await rejectsWithCode(verifierFor({ keys: [impostor] }).verify(token, REQUEST), 'IDENTITY_INVALID');
      });
    });

    describe("compared with jose's createIdentitySigner", () => {
      it(`emits the same compact JWS: 3 base64url parts, the same header (${algorithm}, kid) and claims`, async () => {
        const ours = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const jose = await createIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const token = await ours.sign(IDENTITY, 'commerce');
        const reference = await jose.sign(IDENTITY, 'commerce');
        const parts = token.split('.');
        assert.equal(parts.length, 3);
        for (const part of parts) assert.match(part, /^[A-Za-z0-9_-]+$/);
        const decoded = decode(token);
        assert.deepEqual(decoded.header, { alg: algorithm, kid: pair.privateJwk.kid, typ: 'keygate-id+jwt' });
        assert.deepEqual(decoded, decode(reference));
        assert.deepEqual(ours.jwks, jose.jwks);
      });

      it("verifies with jose's JWKS, and jose's assertions verify with the gateway signer's JWKS", async () => {
        const ours = createGatewayIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const jose = await createIdentitySigner({ privateJwk: pair.privateJwk, now: () => NOW });
        const token = await ours.sign(IDENTITY, 'commerce');
        const reference = await jose.sign({ ...IDENTITY, requestId: 'req_jose' }, 'commerce');
        assert.equal((await verifierFor(jose.jwks).verify(token, REQUEST)).requestId, 'req_abc');
        assert.equal((await verifierFor(ours.jwks).verify(reference, REQUEST)).requestId, 'req_jose');
      });
    });

    describe('with an unusable key', () => {
      it('refuses a key without a kid', () => {
        const { kid: _kid, ...withoutKid } = pair.privateJwk;
        assert.throws(() => createGatewayIdentitySigner({ privateJwk: withoutKid }), /needs a kid/);
      });

      it('refuses a key that is neither P-256 nor Ed25519', () => {
        assert.throws(
          () => createGatewayIdentitySigner({ privateJwk: { ...pair.privateJwk, crv: 'X25519' } }),
          /must be P-256 \(ES256\) or Ed25519 \(EdDSA\)/,
        );
      });
    });
  });
}
