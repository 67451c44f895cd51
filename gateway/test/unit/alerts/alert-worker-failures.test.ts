import assert from 'node:assert/strict';
import { createAlertWorker } from '../../../src/alerts/alert-worker.ts';
import { createLogger } from '../../../src/http/logger.ts';
import type { AlertStore } from '../../../src/model/alert-store.ts';

describe('the alert worker while its store fails', () => {
  it('reports a failed look to its caller and leaves no rejection unheard (one ends the process)', async () => {
    const unheard: unknown[] = [];
    const onUnhandled = (reason: unknown) => unheard.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      let looks = 0;
      const store = {
        claimDue: async () => {
          looks++;
          throw new Error('CLUSTERDOWN The cluster is down');
        },
      } as unknown as AlertStore;
      const worker = createAlertWorker({
        store,
        send: async () => ({ statusCode: 200 }) as never,
        options: {
          timeoutMs: 1000,
          concurrency: 1,
          pollIntervalMs: 60_000,
          allowPrivateAddresses: true,
        } as never,
        logger: createLogger('silent'),
        lookupHost: async () => [],
      });
      await assert.rejects(worker.runOnce(), /CLUSTERDOWN/);
      await assert.rejects(worker.runOnce(), /CLUSTERDOWN/, 'the next look runs after a failed one');
      assert.equal(looks, 2);
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(unheard, []);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
