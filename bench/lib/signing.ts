import { createGatewayIdentitySigner } from '../../gateway/src/identity/identity-signer.ts';
import {
  generateIdentityKeyPair,
  type Identity,
  type IdentityAlgorithm,
} from '../../packages/identity/src/index.ts';

const SIGNATURES = 20_000;
const IN_FLIGHT = 16;

/** CPU (µs, every thread of this process) per signature while `sign` runs `SIGNATURES` times. */
async function cpuPerSignature(sign: () => Promise<unknown> | unknown, inFlight: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < SIGNATURES; i += inFlight) {
    await Promise.all(Array.from({ length: inFlight }, sign));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / SIGNATURES;
}

/**
 * What the signed identity assertion every proxied request carries costs on this machine with a key
 * of `algorithm`: the gateway's own signer (node:crypto), inline and in its signing worker with 16 in
 * flight. Part of every gateway mode, policies off included; the raw pipe has nothing like it.
 */
export async function measureAssertionCost(
  algorithm: IdentityAlgorithm,
): Promise<{ inlineMicros: number; offThreadMicros: number }> {
  const { privateJwk } = await generateIdentityKeyPair(algorithm);
  const signer = createGatewayIdentitySigner({ privateJwk });
  const identity: Identity = {
    keyId: 'key_0123456789abcdefghij',
    environment: 'live',
    scopes: ['article:r', 'stock:r'],
    secretId: 'sec_0123456789abcdefghij',
    method: 'GET',
    path: '/v2/catalog/products',
    requestId: 'req_0123456789abcdefghij',
  };
  const audience = 'commerce';
  await cpuPerSignature(() => signer.signNow(identity, audience), 1);
  const inlineMicros = await cpuPerSignature(() => signer.signNow(identity, audience), 1);
  const offThread = () =>
    new Promise<string>((resolve, reject) =>
      signer.signOffThread(identity, audience, (error, jwt) => (error ? reject(error) : resolve(jwt))),
    );
  await cpuPerSignature(offThread, IN_FLIGHT);
  const offThreadMicros = await cpuPerSignature(offThread, IN_FLIGHT);
  await signer.close();
  return { inlineMicros, offThreadMicros };
}
