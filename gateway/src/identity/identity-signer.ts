import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import {
  DEFAULT_ASSERTION_TTL_SECONDS,
  IDENTITY_ISSUER,
  type Identity,
  type IdentitySigner,
  identityAlgorithmOf,
  publicJwkOf,
} from '@keygate/identity';
import type { JWK } from 'jose';
import { createBatchSigner, SignerClosedError } from './batch-signer.ts';
import { jwsSignerOf } from './jws-signature.ts';

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** An identity signer that can also sign synchronously (no promise on the data plane's hot path). */
export interface SyncIdentitySigner extends IdentitySigner {
  /** The same assertion as `sign`, returned directly. */
  signNow(identity: Identity, audience: string): string;
  /**
   * The same assertion, signed in the signer's worker thread with the others of this event-loop turn
   * (the event loop stays free meanwhile). `done` gets an error if the worker dies or the signer is closed.
   */
  signOffThread(
    identity: Identity,
    audience: string,
    done: (error: Error | null, assertion: string) => void,
  ): void;
  /** Starts the signing worker now, so the first concurrent requests do not wait for it to boot. */
  warmUp(): void;
  /** Terminates the signing worker (after the server stopped): later off-thread signatures fail. */
  close(): Promise<void>;
  /** Lifetime of the assertions it signs (`exp` − `iat`), in seconds. */
  readonly ttlSeconds: number;
  /** The clock `iat` is taken from (epoch ms). */
  readonly now: () => number;
}

/**
 * The gateway's identity signer: the same compact JWS as @keygate/identity's `createIdentitySigner`
 * (ES256 over P-256 or EdDSA over Ed25519, as the key is; header `{alg, kid, typ: 'keygate-id+jwt'}`;
 * the same claims, bound to the request or to the key as the identity given says), signed with
 * node:crypto's synchronous `sign` over a header encoded once, instead of jose's WebCrypto path (an
 * async job, a key check and a claims copy per call): in request binding it signs every proxied request.
 * Off-thread signatures go to one worker thread in batches (see batch-signer.ts); one its worker lost
 * (it died) is signed inline instead, so a crashed worker fails no request. `close` stops it.
 */
export function createGatewayIdentitySigner(options: {
  privateJwk: JWK;
  ttlSeconds?: number;
  issuer?: string;
  now?: () => number;
  /** Sees each signing worker started (tests terminate it mid-batch). */
  onWorkerStart?: (worker: Worker) => void;
}): SyncIdentitySigner {
  const { privateJwk } = options;
  if (!privateJwk.kid) throw new Error('identity signing key needs a kid');
  const algorithm = identityAlgorithmOf(privateJwk);
  if (!algorithm) throw new Error('identity key must be P-256 (ES256) or Ed25519 (EdDSA)');
  const key: KeyObject = createPrivateKey({ key: privateJwk as JsonWebKey, format: 'jwk' });
  const signatureOf = jwsSignerOf(key);
  const ttl = options.ttlSeconds ?? DEFAULT_ASSERTION_TTL_SECONDS;
  const issuer = options.issuer ?? IDENTITY_ISSUER;
  const now = options.now ?? Date.now;
  const header = base64url(JSON.stringify({ alg: algorithm, kid: privateJwk.kid, typ: 'keygate-id+jwt' }));
  /** The JWS signing input (`header.payload`) of an assertion; JSON leaves out the claims a key-bound one lacks. */
  const signingInput = (identity: Identity, audience: string): string => {
    const iat = Math.floor(now() / 1000);
    const payload = base64url(
      JSON.stringify({
        env: identity.environment,
        scp: identity.scopes,
        sid: identity.secretId,
        htm: identity.method,
        htp: identity.path,
        iss: issuer,
        sub: identity.keyId,
        aud: audience,
        jti: identity.requestId,
        iat,
        exp: iat + ttl,
      }),
    );
    return `${header}.${payload}`;
  };
  /** The compact JWS of a signing input, signed here and now. */
  const assertionOf = (input: string): string => `${input}.${signatureOf(input)}`;
  const signNow = (identity: Identity, audience: string): string =>
    assertionOf(signingInput(identity, audience));
  const batchSigner = createBatchSigner(key, { onStart: options.onWorkerStart });
  /** A signature the worker lost (it died with it; the next batch starts a new one) is made inline. */
  const signInline = (input: string, done: (error: Error | null, assertion: string) => void) => {
    let assertion: string;
    try {
      assertion = assertionOf(input);
    } catch (error) {
      return done(error as Error, '');
    }
    done(null, assertion);
  };
  const signOffThread: SyncIdentitySigner['signOffThread'] = (identity, audience, done) => {
    const input = signingInput(identity, audience);
    batchSigner.sign(input, (error, signature) => {
      if (!error) done(null, `${input}.${signature}`);
      else if (error instanceof SignerClosedError) done(error, '');
      else signInline(input, done);
    });
  };
  return {
    jwks: { keys: [publicJwkOf(privateJwk)] },
    signNow,
    signOffThread,
    sign: async (identity, audience) => signNow(identity, audience),
    warmUp: () => batchSigner.start(),
    close: () => batchSigner.close(),
    ttlSeconds: ttl,
    now,
  };
}
