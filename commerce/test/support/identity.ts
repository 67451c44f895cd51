import {
  createIdentitySigner,
  createIdentityVerifier,
  type Environment,
  generateIdentityKeyPair,
  type IdentitySigner,
  type IdentityVerifier,
} from '@keygate/identity';
import { createRandomId } from '../../src/ids.ts';

/** Every scope the commerce routes check, so a test can start from "allowed" and remove one. */
export const ALL_SCOPES = ['article:rw', 'order:rw', 'stock:rw', 'pricing:rw', 'customer:rw', 'webhook:rw'];

export interface AssertionOptions {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  scopes?: string[];
  environment?: Environment;
  keyId?: string;
  audience?: string;
}

/** A gateway stand-in: a key pair, its local-JWKS verifier and a way to sign assertions. */
export interface TestIdentity {
  signer: IdentitySigner;
  verifier: IdentityVerifier;
  /** Signs an assertion as the gateway would for one request. */
  assert(options: AssertionOptions): Promise<string>;
}

/** Creates a fresh identity key pair (ES256), a signer and a verifier for audience `commerce`. */
export async function createTestIdentity(): Promise<TestIdentity> {
  const { privateJwk } = await generateIdentityKeyPair();
  const signer = await createIdentitySigner({ privateJwk });
  const verifier = createIdentityVerifier({ keys: signer.jwks, audience: 'commerce' });
  return {
    signer,
    verifier,
    assert(options) {
      return signer.sign(
        {
          keyId: options.keyId ?? 'key_test',
          environment: options.environment ?? 'live',
          scopes: options.scopes ?? ALL_SCOPES,
          secretId: 'sec_test',
          method: options.method,
          path: options.path,
          // A fresh id per assertion: it is the assertion's jti, which verifiers may accept only once.
          requestId: createRandomId('req'),
        },
        options.audience ?? 'commerce',
      );
    },
  };
}
