import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook } from '@keygate/webhooks';
import { createTempDir } from '../support/app.ts';
import { createTestIdentity, type TestIdentity } from '../support/identity.ts';
import {
  childEnv,
  findFreePort,
  killRunning,
  signedFetch,
  startMain,
  waitUntilReady,
} from '../support/process.ts';
import { type ReceivedRequest, type Receiver, startReceiver, waitFor } from '../support/receiver.ts';

interface DeliveryJson {
  id: string;
  eventId: string;
  status: string;
  attempts: Array<{ statusCode: number | null; error: string | null }>;
}

describe('webhooks across a kill -9 of node src/main.ts', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof createTempDir>;
  let identity: TestIdentity;
  let receiver: Receiver;
  beforeEach(async () => {
    temp = createTempDir();
    identity = await createTestIdentity();
  });
  afterEach(async () => {
    killRunning();
    await receiver.close();
    temp.remove();
  });

  it('loses no event and redelivers the interrupted one with the same webhook-id', async () => {
    const jwksFile = join(temp.dir, 'jwks.json');
    writeFileSync(jwksFile, JSON.stringify(identity.signer.jwks));
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;
    const env = childEnv({
      COMMERCE_ENV: 'live',
      COMMERCE_PORT: String(port),
      KEYGATE_DATA_DIR: join(temp.dir, 'data'),
      KEYGATE_JWKS_FILE: jwksFile,
      LOG_LEVEL: 'error',
      KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
      COMMERCE_WEBHOOK_RETRY_SCHEDULE: '0,0.05,0.05,0.05,0.05,0.05,0.05,0.05',
      COMMERCE_WEBHOOK_JITTER: '0',
      COMMERCE_WEBHOOK_POLL_MS: '20',
      COMMERCE_WEBHOOK_TIMEOUT_MS: '5000',
    });
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await signedFetch(identity, base, method, path, body);
      const text = await res.text();
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${text}`);
      return text === '' ? undefined : JSON.parse(text);
    };

    // Phase 1: slow, every third request fails, and the fifth never answers: the process dies then.
    const acknowledged: ReceivedRequest[] = [];
    let hungRequest: ReceivedRequest | undefined;
    receiver = await startReceiver((request) => {
      if (request.n === 5) {
        hungRequest = request;
        return { hang: true };
      }
      if (request.n % 3 === 0) return { status: 500, delayMs: 20 };
      acknowledged.push(request);
      return { delayMs: 20 };
    });

    const first = startMain(env);
    await waitUntilReady(base, first.child);
    const endpoint = await call('POST', '/v2/webhooks/endpoints', {
      url: receiver.url,
      eventTypes: ['stock.updated'],
    });
    for (let i = 1; i <= 10; i++) await call('POST', '/v2/stock/KG-00001:adjust', { delta: i });
    await waitFor(() => hungRequest !== undefined, 'a delivery in flight');
    first.child.kill('SIGKILL');
    assert.deepEqual(await first.exited, [null, 'SIGKILL']);

    // Phase 2: the same database, a receiver that now answers everything.
    receiver.setReply((request) => {
      acknowledged.push(request);
      return {};
    });
    const second = startMain(env);
    await waitUntilReady(base, second.child);
    for (let i = 11; i <= 12; i++) await call('POST', '/v2/stock/KG-00001:adjust', { delta: i });

    const deliveries = async () =>
      (
        (await call('GET', `/v2/webhooks/endpoints/${endpoint.id}/deliveries?limit=100`)) as {
          data: DeliveryJson[];
        }
      ).data;
    let all: DeliveryJson[] = [];
    const deadline = Date.now() + 30_000;
    while (!(all.length === 12 && all.every((d) => d.status === 'succeeded'))) {
      assert.ok(Date.now() < deadline, `not all delivered: ${JSON.stringify(all.map((d) => d.status))}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      all = await deliveries();
    }
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, [0, null], second.stderr());

    // Every event was acknowledged by the receiver at least once: none lost.
    const eventIds = new Set(all.map((d) => d.eventId));
    const acknowledgedEvents = new Set(acknowledged.map((r) => r.payload.id));
    assert.deepEqual([...eventIds].sort(), [...acknowledgedEvents].sort());
    // A webhook-id always carries the same event, and every request verifies.
    for (const request of receiver.received) {
      const delivery = all.find((d) => d.id === request.id);
      assert.equal(delivery?.eventId, request.payload.id);
      const sentAt = Number(request.headers['webhook-timestamp']) * 1000;
      assert.ok(verifyWebhook(endpoint.secret, request.headers, request.body, { now: sentAt }));
    }
    // The request in flight at the kill came again, after the restart, with the same webhook-id.
    assert.ok(hungRequest);
    const again = receiver.received.filter((r) => r.id === hungRequest?.id && r.n > 5);
    assert.ok(again.length >= 1, 'the interrupted delivery was redelivered');
    assert.equal(again[0]?.body, hungRequest.body);
    const interrupted = all.find((d) => d.id === hungRequest?.id);
    assert.ok(
      interrupted?.attempts.some((a) => a.error === 'interrupted: the process stopped during this attempt'),
    );
    // Per-endpoint order: first acknowledgements arrive in event order.
    const firstAcks = [...new Map(acknowledged.map((r) => [r.payload.id, r.n])).entries()].sort(
      (a, b) => a[1] - b[1],
    );
    const order = all
      .slice()
      .reverse()
      .map((d) => d.eventId);
    assert.deepEqual(
      firstAcks.map(([id]) => id),
      order,
    );

    if (process.env.REPORT_FIGURES) {
      const ids = receiver.received.map((r) => r.id);
      const redelivered = new Set(ids.filter((id, i) => ids.indexOf(id) !== i));
      process.stderr.write(
        `kill -9: events ${eventIds.size}, requests ${receiver.received.length}, acknowledged ${acknowledgedEvents.size}, ` +
          `webhook-ids sent more than once ${redelivered.size}, hung ${hungRequest.id} redelivered ${again.length}x\n`,
      );
    }
  });
});
