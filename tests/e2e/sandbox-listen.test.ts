import assert from 'node:assert/strict';
import { verifyWebhook } from '@keygate/webhooks';
import { type CliProcess, printedSecret, startCli } from '../support/cli.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

describe('keygate-cli listen: webhooks forwarded to a local receiver through the gateway', function () {
  this.timeout(180_000);
  let system: System;
  let receiver: WebhookReceiver;
  let cli: CliProcess | undefined;

  before(async () => {
    system = await startSystem({ commerceEnv: { COMMERCE_WEBHOOK_POLL_MS: '100' } });
    receiver = await startReceiver();
  });
  after(async () => {
    cli?.child.kill('SIGTERM');
    receiver?.close();
    await system?.stop();
  });

  const trigger = async (secret: string, type: string) => {
    const res = await system.call(secret, '/v2/webhooks/events:trigger', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await json<{ eventId: string }>(res)).eventId;
  };
  const receivedIds = () => receiver.received.map((d) => (JSON.parse(d.body) as { id: string }).id);

  it('forwards every event once, signed with the printed whsec_, across a gateway restart, until the key is revoked', async () => {
    const key = await system.createKey({ name: 'laptop', env: 'test', scopes: ['webhook:rw'] });
    cli = startCli(
      ['listen', '--forward-to', receiver.url, '--events', 'order.created,stock.updated,customer.created'],
      {
        KEYGATE_API_KEY: key.secret,
        KEYGATE_BASE_URL: system.gateway.url,
      },
    );
    await waitUntil('the CLI printed its secret', () => printedSecret(cli!) !== undefined);
    const secret = printedSecret(cli)!;
    // The stream is open once the gateway logged the call; give it the first event only then.
    await waitUntil('the stream is open', async () => {
      const first = await trigger(key.secret, 'customer.created');
      await new Promise((resolve) => setTimeout(resolve, 300));
      return receivedIds().includes(first);
    });
    const expected = [...receivedIds()];
    expected.push(await trigger(key.secret, 'order.created'));
    // Filtered out: customer.updated is not forwarded, the customer.created it records first is.
    await trigger(key.secret, 'customer.updated');
    await waitUntil('the order arrived', () => receivedIds().includes(expected.at(-1)!));

    // The gateway restarts mid-stream; events made right after come once the CLI resumed.
    await system.gateway.stop();
    await system.restartGateway(0);
    const afterRestart = [
      await trigger(key.secret, 'stock.updated'),
      await trigger(key.secret, 'order.created'),
    ];
    await waitUntil('the events after the restart arrived', () =>
      afterRestart.every((id) => receivedIds().includes(id)),
    );

    const ids = receivedIds();
    assert.equal(new Set(ids).size, ids.length, 'no event forwarded twice');
    for (const id of [...expected, ...afterRestart]) assert.ok(ids.includes(id), `${id} forwarded`);
    for (const delivery of receiver.received) {
      assert.ok(verifyWebhook(secret, delivery.headers, delivery.body));
      const event = JSON.parse(delivery.body) as { type: string };
      assert.ok(['order.created', 'stock.updated', 'customer.created'].includes(event.type));
      assert.equal(delivery.headers['webhook-id'], (JSON.parse(delivery.body) as { id: string }).id);
    }
    assert.match(cli.stdout(), /order\.created {2}evt_\S+ {2}-> 204 \(\d+ ms\)/);
    assert.match(cli.stderr(), /reconnecting|retrying/);

    // Revoking the key ends the stream; the reconnect is refused and the CLI stops.
    const revoked = await system.keygate('keys', 'revoke', key.id);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(await cli.exited, 2);
    assert.match(cli.stderr(), /refused: 401 KEY_REVOKED/);
  });

  it('refuses a live key before any call', async () => {
    const live = await system.createKey({ name: 'prod', env: 'live', scopes: ['webhook:rw'] });
    const run = startCli(['listen', '--forward-to', receiver.url], {
      KEYGATE_API_KEY: live.secret,
      KEYGATE_BASE_URL: system.gateway.url,
    });
    assert.equal(await run.exited, 2);
    assert.match(run.stderr(), /test keys only/);
  });

  it('trigger and logs tail: the event id, then the calls as they happen, filtered by status', async () => {
    const key = await system.createKey({
      name: 'tail',
      env: 'test',
      scopes: ['webhook:rw', 'auth:rw', 'article:r'],
    });
    const env = { KEYGATE_API_KEY: key.secret, KEYGATE_BASE_URL: system.gateway.url };
    const triggered = startCli(['trigger', 'stock.updated'], env);
    assert.equal(await triggered.exited, 0, triggered.stderr());
    assert.match(triggered.stdout(), /^Triggered stock\.updated: evt_\S+\n$/);
    const tail = startCli(['logs', 'tail', '--status', '4xx'], env);
    try {
      const forced = await system.call(key.secret, '/v2/channels', {
        headers: { 'Keygate-Test-Scenario': 'forbidden' },
      });
      assert.equal(forced.status, 403);
      await waitUntil('the 403 is tailed', () => / 403 {2}GET \/v2\/channels/.test(tail.stdout()));
      assert.doesNotMatch(tail.stdout(), / 200 /, 'only 4xx lines');
    } finally {
      tail.child.kill('SIGINT');
      assert.equal(await tail.exited, 0);
    }
  });

  it('forwards the gateway’s alerts of the test environment too, when the key holds auth:rw', async () => {
    const key = await system.createKey({ name: 'alerts', env: 'test', scopes: ['webhook:rw', 'auth:rw'] });
    const run = startCli(['listen', '--forward-to', receiver.url, '--events', 'key.created,key.revoked'], {
      KEYGATE_API_KEY: key.secret,
      KEYGATE_BASE_URL: system.gateway.url,
    });
    try {
      await waitUntil('the CLI printed its secret', () => printedSecret(run) !== undefined);
      const secret = printedSecret(run)!;
      const alerts = () =>
        receiver.received.filter((d) => (JSON.parse(d.body) as { type: string }).type.startsWith('key.'));
      const made: string[] = [];
      // The stream starts with the next alert once open: keys are made until one arrives.
      await waitUntil('an alert of a key made now arrived', async () => {
        const created = await system.call(key.secret, '/v2/auth/keys', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: 'made', environment: 'test', scopes: ['webhook:rw'] }),
        });
        assert.equal(created.status, 201, await created.clone().text());
        made.push((await json<{ id: string }>(created)).id);
        await new Promise((resolve) => setTimeout(resolve, 300));
        return alerts().length > 0;
      });
      const revoked = await system.call(key.secret, `/v2/auth/keys/${made.at(-1)}`, { method: 'DELETE' });
      assert.equal(revoked.status, 200);
      await waitUntil('the revocation arrived', () =>
        alerts().some((d) => (JSON.parse(d.body) as { type: string }).type === 'key.revoked'),
      );
      for (const delivery of alerts()) {
        assert.ok(verifyWebhook(secret, delivery.headers, delivery.body));
        const alert = JSON.parse(delivery.body) as {
          id: string;
          environment: string;
          data: { keyId: string };
        };
        assert.equal(delivery.headers['webhook-id'], alert.id);
        assert.equal(alert.environment, 'test');
        assert.ok(made.includes(alert.data.keyId), `an alert about ${alert.data.keyId}, not a key made here`);
      }
      const ids = alerts().map((d) => d.headers['webhook-id']);
      assert.equal(new Set(ids).size, ids.length, 'an alert was forwarded twice');
      // The receiver holds a delivery before it answers, and the CLI prints the answer after it.
      await waitUntil('the CLI printed the revocation forwarded', () =>
        /key\.revoked {2}evt_\S+ {2}-> 204/.test(run.stdout()),
      );
    } finally {
      run.child.kill('SIGINT');
      await run.exited;
    }
  });
});
