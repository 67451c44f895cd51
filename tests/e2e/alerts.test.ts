import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSqliteKeyStore } from '../../gateway/src/store/sqlite/sqlite-store.ts';
import { setKeyBudget } from '../support/alert-budget.ts';
import { type AlertReceiver, startAlertReceiver } from '../support/alert-receiver.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** Alerts end to end: a real gateway process, real key changes and calls, a real receiver verifying with `standardwebhooks`. */
describe('alerts from the gateway', function () {
  this.timeout(120_000);
  let system: System;
  let admin: { id: string; secret: string };
  const receivers: AlertReceiver[] = [];

  const api = (path: string, init: RequestInit = {}) => system.call(admin.secret, path, init);
  const post = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
    api(path, {
      method: 'POST',
      headers: { ...JSON_HEADERS, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** A receiver with an endpoint registered for it; the endpoint's secret is handed to the receiver. */
  async function receiverFor(options: Record<string, unknown> = {}) {
    const receiver = await startAlertReceiver();
    receivers.push(receiver);
    const created = await post('/v2/auth/alert-endpoints', { url: receiver.url, ...options });
    assert.equal(created.status, 201, await created.clone().text());
    const endpoint = await json<{ id: string; secret: string }>(created);
    receiver.secret = endpoint.secret;
    return { receiver, endpoint };
  }

  const waitForType = (receiver: AlertReceiver, type: string, count = 1) =>
    waitUntil(
      `${count} × ${type} at the receiver (got ${receiver.types().join(', ')})`,
      () => receiver.types().filter((t) => t === type).length >= count,
      { timeoutMs: 30_000 },
    );

  before(async () => {
    system = await startSystem({
      gatewayEnv: {
        KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
        KEYGATE_ALERTS_POLL_MS: '100',
        KEYGATE_ALERTS_RETRY_SCHEDULE: '0,0.2,0.2,0.2',
        KEYGATE_ALERTS_TIMEOUT_MS: '1000',
        KEYGATE_SWEEP_INTERVAL_MS: '200',
      },
    });
    admin = await system.createKey({
      name: 'ops',
      env: 'live',
      scopes: ['auth:rw', 'article:r', 'order:rw'],
    });
  });

  after(async () => {
    for (const receiver of receivers) await receiver.close();
    await system?.stop();
  });

  it('creates an endpoint with its secret shown once, lists, reads, updates and deletes it', async () => {
    const created = await post('/v2/auth/alert-endpoints', {
      url: 'http://127.0.0.1:9/alerts',
      eventTypes: ['key.revoked'],
    });
    assert.equal(created.status, 201);
    const endpoint = await json<{ id: string; secret: string; eventTypes: string[] }>(created);
    assert.match(endpoint.secret, /^whsec_/);
    assert.equal(created.headers.get('location'), `/v2/auth/alert-endpoints/${endpoint.id}`);
    const listed = await api('/v2/auth/alert-endpoints');
    const listText = await listed.text();
    assert.ok(listText.includes(endpoint.id));
    assert.ok(!listText.includes(endpoint.secret), 'the secret is shown only on create');
    const patched = await api(`/v2/auth/alert-endpoints/${endpoint.id}`, {
      method: 'PATCH',
      headers: JSON_HEADERS,
      body: JSON.stringify({
        eventTypes: ['key.created', 'key.expiring'],
        identityIds: ['idt_1'],
        enabled: false,
      }),
    });
    assert.equal(patched.status, 200);
    const updated = await json<Record<string, unknown>>(patched);
    assert.deepEqual(updated.eventTypes, ['key.created', 'key.expiring']);
    assert.deepEqual(updated.identityIds, ['idt_1']);
    assert.equal(updated.disabledReason, 'manual');
    assert.equal((await api(`/v2/auth/alert-endpoints/${endpoint.id}`, { method: 'DELETE' })).status, 204);
    assert.equal((await api(`/v2/auth/alert-endpoints/${endpoint.id}`)).status, 404);
  });

  it('refuses bad input with a problem and changes nothing', async () => {
    const before = await json<{ data: unknown[] }>(await api('/v2/auth/alert-endpoints'));
    const bad = await post('/v2/auth/alert-endpoints', {
      url: 'ftp://example.com/',
      eventTypes: ['key.exploded'],
    });
    assert.equal(bad.status, 422);
    assert.equal(bad.headers.get('content-type'), 'application/problem+json');
    const problem = await json<{ errors: Array<{ pointer: string }> }>(bad);
    assert.deepEqual(problem.errors.map((e) => e.pointer).sort(), ['/eventTypes/0', '/url']);
    const after = await json<{ data: unknown[] }>(await api('/v2/auth/alert-endpoints'));
    assert.equal(after.data.length, before.data.length);
    const reader = await system.createKey({ name: 'reader', env: 'live', scopes: ['article:r'] });
    const forbidden = await system.call(reader.secret, '/v2/auth/alert-endpoints');
    assert.equal(forbidden.status, 403, 'a key without auth:rw reads alert endpoints');
  });

  it('sends key.created, key.scopes_changed, key.rotated, key.secret_closed and key.revoked, signed', async () => {
    const { receiver } = await receiverFor({
      eventTypes: ['key.created', 'key.scopes_changed', 'key.rotated', 'key.secret_closed', 'key.revoked'],
    });
    const created = await post('/v2/auth/keys', {
      name: 'integration',
      environment: 'live',
      scopes: ['article:r'],
    });
    assert.equal(created.status, 201, await created.clone().text());
    const key = await json<{ id: string; secret: string }>(created);
    assert.equal(
      (await post(`/v2/auth/keys/${key.id}/scopes`, { scopes: ['article:r', 'order:rw'] })).status,
      200,
    );
    assert.equal((await post(`/v2/auth/keys/${key.id}:rotate`, { overlapDays: 1 })).status, 200);
    assert.equal((await post(`/v2/auth/keys/${key.id}:close-old-secret`, {})).status, 200);
    assert.equal((await api(`/v2/auth/keys/${key.id}`, { method: 'DELETE' })).status, 200);
    await waitForType(receiver, 'key.revoked');
    const ofKey = receiver.verified.filter((alert) => alert.data.keyId === key.id);
    assert.deepEqual(
      ofKey.map((alert) => alert.type),
      ['key.created', 'key.scopes_changed', 'key.rotated', 'key.secret_closed', 'key.revoked'],
    );
    const scopes = ofKey[1]!;
    assert.deepEqual((scopes.data.after as { scopes: string[] }).scopes, ['article:r', 'order:rw']);
    assert.deepEqual(scopes.data.actor, { type: 'key', id: admin.id });
    assert.equal(scopes.environment, 'live');
    for (const alert of ofKey) assert.ok(!alert.body.includes(key.secret), 'an alert carries a key secret');
  });

  it('sends key.expiring 7 and 1 days ahead from the sweep, and key.expired at the end of the last day', async () => {
    const { receiver } = await receiverFor({ eventTypes: ['key.expiring', 'key.expired'] });
    const today = new Date().toISOString().slice(0, 10);
    const created = await post('/v2/auth/keys', {
      name: 'short-lived',
      environment: 'live',
      scopes: ['article:r'],
      expiresAt: today,
    });
    assert.equal(created.status, 201, await created.clone().text());
    const key = await json<{ id: string }>(created);
    await waitForType(receiver, 'key.expiring', 2);
    const expiring = receiver.verified.filter(
      (alert) => alert.type === 'key.expiring' && alert.data.keyId === key.id,
    );
    assert.deepEqual(
      expiring.map((alert) => alert.data.leadDays),
      [7, 1],
    );
    assert.equal(expiring[0]!.data.expiresAt, today);
    assert.equal(receiver.types().includes('key.expired'), false, 'key.expired came before the key expired');
    // The same gateway a day later: the scheduled event falls due.
    await system.gateway.stop();
    const endOfDay = Date.parse(`${today}T00:00:00.000Z`) + 86_400_000;
    await system.restartGateway(0, {
      KEYGATE_BENCH_MODE: '1',
      KEYGATE_TEST_CLOCK_OFFSET_MS: String(endOfDay - Date.now() + 60_000),
    });
    try {
      await waitForType(receiver, 'key.expired');
      const expired = receiver.verified.find((alert) => alert.type === 'key.expired')!;
      assert.equal(expired.data.keyId, key.id);
      assert.equal(expired.data.expiresAt, today);
    } finally {
      await system.gateway.stop();
      await system.restartGateway(0);
    }
  });

  it('sends quota.threshold at 80 % and 100 %, credits.low, credits.exhausted and key.rate_limited once each', async () => {
    const { receiver } = await receiverFor({
      eventTypes: ['quota.threshold', 'credits.low', 'credits.exhausted', 'key.rate_limited'],
    });
    const caller = await system.createKey({ name: 'metered', env: 'live', scopes: ['article:r'] });
    const store = openSqliteKeyStore(join(system.dataDir, 'gateway.db'));
    try {
      await setKeyBudget(store, caller.id, {
        quotas: [{ period: 'day', limit: 10 }],
        credits: { refill: { interval: 'daily', amount: 5 }, lowAt: 3 },
      });
    } finally {
      await store.close();
    }
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await system.call(caller.secret, '/v2/channels')).status);
    // Credits 5 → 4, 3, 2 (low), 1, 0 (exhausted), then refused; the quota never reaches 80 % of 10.
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429]);
    await waitForType(receiver, 'credits.exhausted');
    await waitForType(receiver, 'credits.low');
    const low = receiver.verified.find((alert) => alert.type === 'credits.low')!;
    assert.equal(low.data.keyId, caller.id);
    assert.equal(low.data.remaining, 2);
    assert.equal(low.data.lowAt, 3);

    const quota = await system.createKey({ name: 'quota', env: 'live', scopes: ['article:r'] });
    const second = openSqliteKeyStore(join(system.dataDir, 'gateway.db'));
    try {
      await setKeyBudget(second, quota.id, { quotas: [{ period: 'day', limit: 5 }] });
    } finally {
      await second.close();
    }
    const quotaStatuses: number[] = [];
    for (let i = 0; i < 7; i++) quotaStatuses.push((await system.call(quota.secret, '/v2/channels')).status);
    assert.deepEqual(quotaStatuses, [200, 200, 200, 200, 200, 429, 429]);
    await waitForType(receiver, 'quota.threshold', 2);
    const thresholds = receiver.verified.filter(
      (alert) => alert.type === 'quota.threshold' && alert.data.keyId === quota.id,
    );
    assert.deepEqual(thresholds.map((alert) => alert.data.threshold).sort(), [100, 80]);
    const eighty = thresholds.find((alert) => alert.data.threshold === 80)!;
    assert.equal(eighty.data.used, 4);
    assert.equal(eighty.data.limit, 5);
    assert.equal(eighty.data.period, 'day');

    // A key's own per-minute limit: every refusal after the first in the hour adds no alert.
    const limited = await system.createKey({
      name: 'limited',
      env: 'live',
      scopes: ['article:r'],
      extra: ['--rate-limit', '1'],
    });
    let refused = 0;
    for (let i = 0; i < 5; i++)
      if ((await system.call(limited.secret, '/v2/channels')).status === 429) refused++;
    assert.ok(refused >= 2, `only ${refused} calls were refused`);
    await waitForType(receiver, 'key.rate_limited');
    // Everything due was sent (a test alert to the same endpoint arrives after it); nothing twice.
    const endpointId = (
      await json<{ data: Array<{ id: string; url: string }> }>(await api('/v2/auth/alert-endpoints'))
    ).data.find((e) => e.url === receiver.url)!.id;
    assert.equal((await post(`/v2/auth/alert-endpoints/${endpointId}:test`)).status, 202);
    await waitUntil(
      'the test alert',
      () => receiver.requests.length > 0 && receiver.types().includes('alert.test'),
    );
    const counts: Record<string, number> = {};
    for (const type of receiver.types()) counts[type] = (counts[type] ?? 0) + 1;
    assert.deepEqual(counts, {
      'credits.low': 1,
      'credits.exhausted': 1,
      'quota.threshold': 2,
      'key.rate_limited': 1,
      'alert.test': 1,
    });
  });

  it('retries an endpoint that is down until it answers, with the same webhook-id, and lists the attempts', async () => {
    const { receiver, endpoint } = await receiverFor({ eventTypes: ['key.created'] });
    receiver.mode = (n) => ({ status: n < 2 ? 503 : 204 });
    const created = await post('/v2/auth/keys', {
      name: 'retried',
      environment: 'live',
      scopes: ['article:r'],
    });
    assert.equal(created.status, 201);
    await waitForType(receiver, 'key.created');
    assert.deepEqual(
      receiver.requests.map((r) => r.answered),
      [503, 503, 204],
    );
    assert.equal(
      new Set(receiver.requests.map((r) => r.webhookId)).size,
      1,
      'a retry changed the webhook-id',
    );
    const page = await json<{
      data: Array<{
        id: string;
        status: string;
        attemptCount: number;
        attempts: Array<{ statusCode: number }>;
      }>;
    }>(await api(`/v2/auth/alert-endpoints/${endpoint.id}/deliveries`));
    const delivery = page.data[0]!;
    assert.equal(delivery.id, receiver.requests[0]!.webhookId);
    assert.equal(delivery.status, 'succeeded');
    assert.equal(delivery.attemptCount, 3);
    assert.deepEqual(
      delivery.attempts.map((a) => a.statusCode),
      [204, 503, 503],
    );
    const metrics = await (await fetch(`${system.gateway.url}/metrics`)).text();
    const attempts = (result: string) =>
      Number(
        new RegExp(`keygate_alert_attempts_total\\{result="${result}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0,
      );
    assert.ok(attempts('failed') >= 2, metrics);
    assert.ok(attempts('succeeded') >= 1, metrics);
    assert.match(metrics, /keygate_alert_backlog \d+/);
    // Resent by hand: the same webhook-id once more.
    const resent = await post(`/v2/auth/alert-deliveries/${delivery.id}:resend`);
    assert.equal(resent.status, 202);
    await waitUntil('the resent delivery', () => receiver.verified.length === 2);
    assert.equal(receiver.verified[1]!.webhookId, delivery.id);
  });

  it('disables an endpoint that answers 410 Gone', async () => {
    const { receiver, endpoint } = await receiverFor({ eventTypes: ['key.created'] });
    receiver.mode = () => ({ status: 410 });
    await post('/v2/auth/keys', { name: 'gone', environment: 'live', scopes: ['article:r'] });
    await waitUntil('the endpoint is disabled', async () => {
      const current = await json<{ enabled: boolean; disabledReason: string | null }>(
        await api(`/v2/auth/alert-endpoints/${endpoint.id}`),
      );
      return !current.enabled && current.disabledReason === 'gone';
    });
    assert.equal(receiver.requests.length, 1, 'a 410 was retried');
  });

  it('signs with both secrets while a rotated one overlaps', async () => {
    const { receiver, endpoint } = await receiverFor({ eventTypes: ['key.revoked'] });
    const oldSecret = endpoint.secret;
    const rotated = await post(`/v2/auth/alert-endpoints/${endpoint.id}:rotate-secret`, { overlapHours: 1 });
    assert.equal(rotated.status, 200);
    const { secret: newSecret, previousSecretExpiresAt } = await json<{
      secret: string;
      previousSecretExpiresAt: string | null;
    }>(rotated);
    assert.notEqual(newSecret, oldSecret);
    assert.ok(previousSecretExpiresAt);
    receiver.secret = oldSecret;
    assert.equal((await post(`/v2/auth/alert-endpoints/${endpoint.id}:test`)).status, 202);
    await waitUntil('the test alert verified with the old secret', () => receiver.verified.length === 1);
    receiver.secret = newSecret;
    assert.equal((await post(`/v2/auth/alert-endpoints/${endpoint.id}:test`)).status, 202);
    await waitUntil('the test alert verified with the new secret', () => receiver.verified.length === 2);
  });

  it('delivers after a restart an alert whose gateway was killed with SIGKILL mid-delivery', async () => {
    const { receiver } = await receiverFor({ eventTypes: ['key.created'] });
    receiver.mode = (n) => (n === 0 ? 'hang' : { status: 204 });
    await post('/v2/auth/keys', { name: 'interrupted', environment: 'live', scopes: ['article:r'] });
    await waitUntil('the first attempt reached the receiver', () => receiver.requests.length === 1);
    system.gateway.child.kill('SIGKILL');
    await system.gateway.exited;
    await system.restartGateway(0);
    await waitForType(receiver, 'key.created');
    assert.equal(receiver.requests.length, 2);
    assert.equal(receiver.requests[1]!.webhookId, receiver.requests[0]!.webhookId);
  });
});
