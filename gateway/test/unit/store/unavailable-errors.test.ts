import assert from 'node:assert/strict';
import { GatewayError } from '../../../src/errors.ts';
import { withUnavailableErrors } from '../../../src/store/unavailable-errors.ts';
import { createMemoryStore } from '../../support/memory-store.ts';

describe('withUnavailableErrors', () => {
  it('turns a failed store call into 503 STORE_UNAVAILABLE, keeping the cause and naming the method', async () => {
    const store = createMemoryStore({ versioned: true });
    const failed: string[] = [];
    const wrapped = withUnavailableErrors(store, (method) => failed.push(method));
    store.failing.add('getKey');
    await assert.rejects(wrapped.getKey('key_x'), (error: unknown) => {
      assert.ok(error instanceof GatewayError);
      assert.equal(error.code, 'STORE_UNAVAILABLE');
      assert.equal(error.status, 503);
      assert.match(String((error.cause as Error).message), /simulated/);
      assert.doesNotMatch(error.message, /simulated/);
      return true;
    });
    assert.deepEqual(failed, ['getKey']);
  });

  it('passes results, synchronous values and the call itself through untouched', async () => {
    const store = createMemoryStore({ versioned: true });
    const wrapped = withUnavailableErrors(store);
    assert.equal(await wrapped.getKey('key_x'), null);
    assert.equal(wrapped.changeMarker(), 0, 'a synchronous marker stays synchronous');
    const before = store.calls.readKeyVersion ?? 0;
    const pending = wrapped.readKeyVersion?.('key_x');
    assert.equal(store.calls.readKeyVersion, before + 1, 'the store is called in the same tick');
    assert.equal(await pending, null);
  });
});
