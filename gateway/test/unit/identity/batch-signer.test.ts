import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { type BatchSigner, createBatchSigner } from '../../../src/identity/batch-signer.ts';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');

/** What one signature came to: its base64url signature or its error. */
type Outcome = { signature: string; error: Error | null };

/** Signs every input (in this event-loop turn) and waits for every outcome. */
function signAll(signer: BatchSigner, inputs: string[]): Promise<Outcome[]> {
  return Promise.all(
    inputs.map(
      (input) =>
        new Promise<Outcome>((resolve) =>
          signer.sign(input, (error, signature) => resolve({ error, signature })),
        ),
    ),
  );
}

const isSignatureOf = (input: string, signature: string) =>
  verify(null, Buffer.from(input), publicKey, Buffer.from(signature, 'base64url'));

const inputsNamed = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, index) => `${prefix}.${index}`);

describe('createBatchSigner', () => {
  let signer: BatchSigner | undefined;
  afterEach(async () => {
    await signer?.close();
    signer = undefined;
  });

  it('answers every input of a batch with its own signature, in a batch longer than one answer', async () => {
    signer = createBatchSigner(privateKey);
    const inputs = inputsNamed('batch', 37);
    const outcomes = await signAll(signer, inputs);
    outcomes.forEach(({ error, signature }, index) => {
      assert.equal(error, null);
      assert.ok(isSignatureOf(inputs[index]!, signature), `signature ${index} is not its input's`);
    });
  });

  it('sends one message per event-loop turn to one worker', async () => {
    const started: Worker[] = [];
    const batches: number[] = [];
    signer = createBatchSigner(privateKey, {
      onStart(worker) {
        started.push(worker);
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (inputs: string[]) => {
          batches.push(inputs.length);
          post(inputs);
        };
      },
    });
    const first = signAll(signer, inputsNamed('first', 10));
    await new Promise(setImmediate);
    const second = signAll(signer, inputsNamed('second', 3));
    await Promise.all([first, second]);
    assert.equal(started.length, 1);
    assert.deepEqual(batches, [10, 3]);
  });

  it('fails what a worker terminated mid-batch owed, and signs later inputs in a new worker', async () => {
    const started: Worker[] = [];
    signer = createBatchSigner(privateKey, {
      onStart(worker) {
        started.push(worker);
        if (started.length > 1) return;
        const post = worker.postMessage.bind(worker);
        worker.postMessage = (inputs: string[]) => {
          post(inputs);
          void worker.terminate();
        };
      },
    });
    const inputs = inputsNamed('doomed', 100);
    const outcomes = await signAll(signer, inputs);
    const failed = outcomes.filter(({ error }) => error);
    assert.ok(failed.length > 0);
    for (const { error, signature } of failed) {
      assert.match(error!.message, /exited/);
      assert.equal(signature, '');
    }
    outcomes.forEach(({ error, signature }, index) => {
      if (!error)
        assert.ok(isSignatureOf(inputs[index]!, signature), `signature ${index} is not its input's`);
    });
    const [later] = await signAll(signer, ['later']);
    assert.equal(later?.error, null);
    assert.ok(isSignatureOf('later', later!.signature));
    assert.equal(started.length, 2);
  });

  it('fails the signatures pending at close and every later one', async () => {
    signer = createBatchSigner(privateKey);
    await signAll(signer, ['warm-up']);
    const pending = signAll(signer, inputsNamed('pending', 500));
    await new Promise(setImmediate);
    await signer.close();
    assert.ok((await pending).some(({ error }) => error));
    const [later] = await signAll(signer, ['later']);
    assert.match(later?.error?.message ?? '', /closed/);
  });
});
