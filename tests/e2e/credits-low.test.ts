import assert from 'node:assert/strict';
import { type AlertReceiver, type ReceivedAlert, startAlertReceiver } from '../support/alert-receiver.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

const JSON_HEADERS = { 'Content-Type': 'application/json' };

interface Credits {
  refill: unknown;
  lowAt?: number;
}

/**
 * `credits.low` levels set through the API on a key and an identity: a real gateway process, real
 * calls spending real balances, alerts verified by a `standardwebhooks` receiver. Each balance
 * starts a few credits above its level, so the alert's `remaining` tells which level fired: one
 * that fired above its level, or the plan's level where the holder's own should win, shows there.
 */
describe('credits.low levels of keys and identities', function () {
  this.timeout(120_000);
  let system: System;
  let admin: { id: string; secret: string };
  let receiver: AlertReceiver;
  let endpointId: string;
  let planId: string;

  const api = (path: string, method = 'GET', body?: unknown) =>
    system.call(admin.secret, path, {
      method,
      headers: JSON_HEADERS,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const created = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await api(path, 'POST', body);
    assert.equal(res.status, 201, await res.clone().text());
    return json<T>(res);
  };
  const spend = async (secret: string, calls: number) => {
    for (let i = 0; i < calls; i++) assert.equal((await system.call(secret, '/v2/channels')).status, 200);
  };
  const lowOf = (subjectId: string) =>
    receiver.verified.filter(
      (alert) => alert.type === 'credits.low' && (alert.data.subject as { id: string }).id === subjectId,
    );
  const waitForLow = (subjectId: string, count = 1) =>
    waitUntil(`${count} × credits.low of ${subjectId}`, () => lowOf(subjectId).length >= count, {
      timeoutMs: 30_000,
    });
  /** Everything recorded before now has been sent once a test alert, sent after it, arrives. */
  const drain = async () => {
    const before = receiver.types().filter((type) => type === 'alert.test').length;
    assert.equal((await api(`/v2/auth/alert-endpoints/${endpointId}:test`, 'POST', {})).status, 202);
    await waitUntil(
      'the test alert',
      () => receiver.types().filter((t) => t === 'alert.test').length > before,
    );
  };
  const levels = (alerts: ReceivedAlert[]) => alerts.map(({ data }) => [data.remaining, data.lowAt]);

  before(async () => {
    system = await startSystem({
      gatewayEnv: {
        KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true',
        KEYGATE_ALERTS_POLL_MS: '100',
        KEYGATE_ALERTS_TIMEOUT_MS: '1000',
      },
    });
    admin = await system.createKey({ name: 'ops', env: 'live', scopes: ['auth:rw', 'article:r'] });
    receiver = await startAlertReceiver();
    const endpoint = await created<{ id: string; secret: string }>('/v2/auth/alert-endpoints', {
      url: receiver.url,
      eventTypes: ['credits.low'],
    });
    receiver.secret = endpoint.secret;
    endpointId = endpoint.id;
    // The plan's level (8) sits above every holder's own: wherever it won, the alerts would say so.
    const plan = await created<{ id: string }>('/v2/auth/plans', {
      name: 'Prepaid',
      credits: { refill: { interval: 'daily', amount: 100 }, lowAt: 8 },
    });
    planId = plan.id;
  });

  after(async () => {
    await receiver?.close();
    await system?.stop();
  });

  it("sends credits.low once below the key's own level, which beats its plan's", async () => {
    const key = await created<{ id: string; secret: string; credits: Credits }>('/v2/auth/keys', {
      name: 'prepaid-key',
      environment: 'live',
      scopes: ['article:r'],
      planId,
      credits: { remaining: 6, lowAt: 4 },
    });
    assert.deepEqual(key.credits, { refill: null, lowAt: 4 });
    await spend(key.secret, 2); // 6 → 4: not below 4
    await spend(key.secret, 2); // → 3 (low), → 2 (already sent)
    await waitForLow(key.id);
    await drain();
    const alerts = lowOf(key.id);
    assert.deepEqual(levels(alerts), [[3, 4]]);
    assert.equal(alerts[0]!.data.keyId, key.id);
    assert.deepEqual(alerts[0]!.data.subject, { type: 'key', id: key.id });
  });

  it("sends credits.low below the identity's own level, which beats its plan's, for any of its keys", async () => {
    const identity = await created<{ id: string; credits: Credits }>('/v2/auth/identities', {
      externalId: 'low-level-customer',
      planId,
      credits: { remaining: 6, lowAt: 3 },
    });
    assert.deepEqual(identity.credits, { refill: null, lowAt: 3 });
    const keys = [];
    for (const name of ['shop', 'warehouse'])
      keys.push(
        await created<{ id: string; secret: string }>('/v2/auth/keys', {
          name,
          environment: 'live',
          scopes: ['article:r'],
          identityId: identity.id,
        }),
      );
    await spend(keys[0]!.secret, 3); // 6 → 3: not below 3
    await spend(keys[1]!.secret, 2); // → 2 (low), → 1
    await waitForLow(identity.id);
    await drain();
    const alerts = lowOf(identity.id);
    assert.deepEqual(levels(alerts), [[2, 3]]);
    assert.equal(alerts[0]!.data.keyId, keys[1]!.id);
    assert.deepEqual(alerts[0]!.data.subject, { type: 'identity', id: identity.id });
  });

  it('falls back to the plan’s level, takes a level set by PATCH, and keeps it across a restart', async () => {
    const identity = await created<{ id: string; credits: Credits }>('/v2/auth/identities', {
      externalId: 'plan-level-customer',
      planId,
      credits: { remaining: 10 },
    });
    assert.deepEqual(identity.credits, { refill: null });
    const key = await created<{ id: string; secret: string }>('/v2/auth/keys', {
      name: 'plan-level',
      environment: 'live',
      scopes: ['article:r'],
      identityId: identity.id,
    });
    await spend(key.secret, 3); // 10 → 7: below the plan's 8
    await waitForLow(identity.id);

    const patched = await api(`/v2/auth/identities/${identity.id}`, 'PATCH', { credits: { lowAt: 5 } });
    assert.equal(patched.status, 200, await patched.clone().text());
    assert.deepEqual((await json<{ credits: Credits }>(patched)).credits, { refill: null, lowAt: 5 });
    await spend(key.secret, 2); // 7 → 5: not below 5
    await spend(key.secret, 1); // → 4 (low at the new level)
    await waitForLow(identity.id, 2);
    await drain();
    assert.deepEqual(levels(lowOf(identity.id)), [
      [7, 8],
      [4, 5],
    ]);

    const own = await created<{ id: string }>('/v2/auth/keys', {
      name: 'own-level',
      environment: 'live',
      scopes: ['article:r'],
      credits: { remaining: 50, lowAt: 20 },
    });
    const lowered = await api(`/v2/auth/keys/${own.id}`, 'PATCH', { credits: { lowAt: 10 } });
    assert.equal(lowered.status, 200, await lowered.clone().text());
    assert.deepEqual((await json<{ credits: Credits }>(lowered)).credits, { refill: null, lowAt: 10 });

    await system.gateway.stop();
    await system.restartGateway(0);
    const keyAfter = await json<{ credits: Credits }>(await api(`/v2/auth/keys/${own.id}`));
    assert.deepEqual(keyAfter.credits, { refill: null, lowAt: 10 });
    const identityAfter = await json<{ credits: Credits }>(await api(`/v2/auth/identities/${identity.id}`));
    assert.deepEqual(identityAfter.credits, { refill: null, lowAt: 5 });

    const cleared = await api(`/v2/auth/identities/${identity.id}`, 'PATCH', { credits: { lowAt: null } });
    assert.equal(cleared.status, 200);
    assert.deepEqual((await json<{ credits: Credits }>(cleared)).credits, { refill: null });
  });

  it('refuses a bad level with a problem and changes nothing', async () => {
    const problemOf = async (res: Response, status: number) => {
      assert.equal(res.status, status, await res.clone().text());
      assert.equal(res.headers.get('content-type'), 'application/problem+json');
      return json<{ code?: string; errors?: Array<{ pointer: string }> }>(res);
    };
    for (const lowAt of [-1, 0, 2.5, '3'])
      assert.deepEqual(
        (
          await problemOf(
            await api('/v2/auth/keys', 'POST', {
              name: 'bad-level',
              environment: 'live',
              scopes: ['article:r'],
              credits: { remaining: 5, lowAt },
            }),
            422,
          )
        ).errors?.map((error) => error.pointer),
        ['/credits/lowAt'],
        `lowAt ${JSON.stringify(lowAt)}`,
      );
    const listed = await api('/v2/auth/keys?limit=100');
    assert.equal(listed.status, 200);
    assert.ok(!(await listed.text()).includes('bad-level'), 'a refused key was created');

    const identity = await created<{ id: string; version: number }>('/v2/auth/identities', {
      externalId: 'bad-level-customer',
      credits: { remaining: 5, lowAt: 2 },
    });
    await problemOf(
      await api(`/v2/auth/identities/${identity.id}`, 'PATCH', { credits: { lowAt: -3 } }),
      422,
    );
    await problemOf(
      await api(`/v2/auth/identities/${identity.id}`, 'PATCH', { credits: { lowAt: 4, refill: null } }),
      422,
    );
    const unchanged = await json<{ credits: Credits; version: number }>(
      await api(`/v2/auth/identities/${identity.id}`),
    );
    assert.deepEqual(unchanged.credits, { refill: null, lowAt: 2 });
    assert.equal(unchanged.version, identity.version);

    // A key of an identity spends the identity's credits: it has no level of its own to set.
    const member = await created<{ id: string; version: number }>('/v2/auth/keys', {
      name: 'member',
      environment: 'live',
      scopes: ['article:r'],
      identityId: identity.id,
    });
    const notHeld = await problemOf(
      await api(`/v2/auth/keys/${member.id}`, 'PATCH', { credits: { lowAt: 1 } }),
      409,
    );
    assert.equal(notHeld.code, 'CREDITS_NOT_HELD');
    const memberAfter = await json<{ credits: Credits | null; version: number }>(
      await api(`/v2/auth/keys/${member.id}`),
    );
    assert.equal(memberAfter.credits, null);
    assert.equal(memberAfter.version, member.version);
  });
});
