// The identity signing worker thread started by batch-signer.ts: it receives the JWS signing inputs
// queued in one event-loop turn as one message, signs them in order (synchronous ES256 or EdDSA, as
// the key is), and answers with their base64url signatures, in order, a few at a time.
import type { KeyObject } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { jwsSignerOf } from './jws-signature.ts';

/** What batch-signer.ts starts the worker with. */
export interface SigningWorkerData {
  /** The identity private key, P-256 or Ed25519 (a KeyObject crosses to a worker thread as is). */
  key: KeyObject;
  /**
   * Signatures per answer: answering a whole batch at once would hold its first requests until its
   * last is signed, and every request of the batch would then reach the event loop together.
   */
  answerEvery: number;
}

const { key, answerEvery } = workerData as SigningWorkerData;
const port = parentPort!;
const signatureOf = jwsSignerOf(key);

port.on('message', (inputs: string[]) => {
  let signatures: string[] = [];
  for (const input of inputs) {
    signatures.push(signatureOf(input));
    if (signatures.length === answerEvery) {
      port.postMessage(signatures);
      signatures = [];
    }
  }
  if (signatures.length > 0) port.postMessage(signatures);
});
