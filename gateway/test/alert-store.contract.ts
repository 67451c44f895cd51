import assert from 'node:assert/strict';
import type { DeliveryOutcome } from '@keygate/webhooks';
import type {
  AlertAttempt,
  AlertEndpointRecord,
  AlertStore,
  NewAlertEvent,
} from '../src/model/alert-store.ts';

const T0 = Date.parse('2026-11-28T10:00:00.000Z');
let counter = 0;

function endpoint(over: Partial<AlertEndpointRecord> = {}): AlertEndpointRecord {
  const id = `aep_${(++counter).toString().padStart(6, '0')}`;
  return {
    id,
    url: `https://alerts.example.com/${id}`,
    description: '',
    eventTypes: null,
    identityIds: null,
    enabled: true,
    disabledReason: null,
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    createdByKeyId: 'key_admin',
    createdAt: new Date(T0 + counter).toISOString(),
    updatedAt: new Date(T0 + counter).toISOString(),
    ...over,
  };
}

function event(over: Partial<NewAlertEvent> = {}): NewAlertEvent {
  const id = `evt_${(++counter).toString().padStart(8, '0')}`;
  return {
    id,
    type: 'key.created',
    dedupeKey: `test:${id}`,
    identityId: null,
    body: JSON.stringify({ id, type: over.type ?? 'key.created', data: {} }),
    createdAt: new Date(T0).toISOString(),
    deliverAt: T0,
    ...over,
  };
}

const attempt = (statusCode: number | null): AlertAttempt => ({
  startedAt: new Date(T0).toISOString(),
  webhookTimestamp: T0 / 1000,
  statusCode,
  durationMs: 3,
  response: statusCode === null ? null : 'ok',
  error: statusCode === null ? 'connection refused' : null,
});

const succeeded: DeliveryOutcome = {
  status: 'succeeded',
  nextAttemptAt: null,
  scheduleStep: 0,
  failingSince: null,
  disable: null,
};

const LEASE = 15_000;

/**
 * What every alert store backend must do (SQLite file, Redis standalone and Cluster): endpoints,
 * fan-out by type and identity, one event per dedupe key across connections, leased claims that a
 * crashed holder gives up when its lease ends, fenced completion, retries, paging and resend.
 */
export function describeAlertStoreContract(
  name: string,
  open: () => Promise<{ store: AlertStore; peer(): Promise<AlertStore>; cleanup(): Promise<void> }>,
): void {
  describe(`alert store (${name})`, () => {
    let store: AlertStore;
    let peer: () => Promise<AlertStore>;
    let cleanup: () => Promise<void>;
    beforeEach(async () => {
      ({ store, peer, cleanup } = await open());
    });
    afterEach(() => cleanup());

    it('stores, lists, replaces and deletes endpoints', async () => {
      const a = endpoint();
      const b = endpoint({ eventTypes: ['key.revoked'], identityIds: ['idt_1'] });
      await store.insertEndpoint(a);
      await store.insertEndpoint(b);
      assert.deepEqual(await store.findEndpoint(b.id), b);
      assert.deepEqual(
        (await store.listEndpoints()).map((e) => e.id),
        [a.id, b.id],
      );
      const changed = {
        ...a,
        url: 'https://elsewhere.example.com/',
        enabled: false,
        disabledReason: 'manual' as const,
      };
      assert.equal(await store.saveEndpoint(changed), true);
      assert.deepEqual(await store.findEndpoint(a.id), changed);
      assert.equal(await store.saveEndpoint(endpoint()), false, 'saved an endpoint that was never created');
      assert.equal(await store.deleteEndpoint(a.id), true);
      assert.equal(await store.findEndpoint(a.id), null);
      assert.equal(await store.deleteEndpoint(a.id), false);
    });

    it('fans an event out to the enabled endpoints whose type and identity filters take it', async () => {
      const all = endpoint();
      const revokedOnly = endpoint({ eventTypes: ['key.revoked'] });
      const identityOnly = endpoint({ identityIds: ['idt_1'] });
      const disabled = endpoint({ enabled: false, disabledReason: 'manual' });
      for (const e of [all, revokedOnly, identityOnly, disabled]) await store.insertEndpoint(e);
      const created = await store.recordEvent(event({ type: 'key.created', identityId: 'idt_1' }));
      const targets = async (ids: string[] | null) =>
        (await Promise.all((ids ?? []).map((id) => store.findDelivery(id)))).map((d) => d?.endpointId).sort();
      assert.deepEqual(await targets(created), [all.id, identityOnly.id].sort());
      const revoked = await store.recordEvent(event({ type: 'key.revoked', identityId: null }));
      assert.deepEqual(await targets(revoked), [all.id, revokedOnly.id].sort());
    });

    it('records one event per dedupe key, however many connections record it at once', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      const others = await Promise.all([peer(), peer(), peer()]);
      const dedupeKey = `quota.threshold:idt_1:month:${T0}:80`;
      const results = await Promise.all(
        [store, ...others].map((s) => s.recordEvent(event({ type: 'quota.threshold', dedupeKey }))),
      );
      assert.equal(results.filter((r) => r !== null).length, 1, `recorded ${JSON.stringify(results)}`);
      assert.equal((await store.listDeliveries(e.id, { limit: 10, beforeSeq: null })).length, 1);
    });

    it('leases a claim: no other connection takes it until the lease ends, then one does', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      const [id] = (await store.recordEvent(event()))!;
      const other = await peer();
      const [first, second] = await Promise.all([
        store.claimDue(T0, 10, LEASE),
        other.claimDue(T0, 10, LEASE),
      ]);
      assert.equal(first.length + second.length, 1, 'the delivery was claimed twice at once');
      const claim = [...first, ...second][0]!;
      assert.equal(claim.deliveryId, id);
      assert.deepEqual(claim.secrets, [e.secret]);
      assert.equal(claim.webhookTimestamp, T0 / 1000);
      assert.deepEqual(await store.claimDue(T0 + LEASE - 1, 10, LEASE), []);
      // The holder died: once its lease ends the delivery is taken again, same webhook-id.
      const [retaken] = await other.claimDue(T0 + LEASE, 10, LEASE);
      assert.equal(retaken?.deliveryId, id);
      assert.equal(await store.completeAttempt(claim, attempt(200), succeeded, new Date(T0 + LEASE)), false);
      assert.equal((await store.findDelivery(id!))?.status, 'delivering', 'a stale holder completed it');
      assert.equal(
        await other.completeAttempt(retaken!, attempt(200), succeeded, new Date(T0 + LEASE + 1)),
        true,
      );
      const done = await store.findDelivery(id!);
      assert.equal(done?.status, 'succeeded');
      assert.equal(done?.attemptCount, 1);
      assert.deepEqual(await store.claimDue(T0 + 10 * LEASE, 10, LEASE), []);
    });

    it('retries a failed attempt when it is due and disables an endpoint that answered 410', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      const [id] = (await store.recordEvent(event()))!;
      const [claim] = await store.claimDue(T0, 10, LEASE);
      const retry: DeliveryOutcome = {
        status: 'pending',
        nextAttemptAt: new Date(T0 + 5_000),
        scheduleStep: 1,
        failingSince: new Date(T0),
        disable: null,
      };
      assert.equal(await store.completeAttempt(claim!, attempt(null), retry, new Date(T0)), true);
      const pending = await store.findDelivery(id!);
      assert.equal(pending?.status, 'pending');
      assert.equal(pending?.nextAttemptAt, new Date(T0 + 5_000).toISOString());
      assert.equal(pending?.attempts[0]?.error, 'connection refused');
      assert.equal((await store.findEndpoint(e.id))?.failingSince, new Date(T0).toISOString());
      assert.deepEqual(await store.claimDue(T0 + 4_999, 10, LEASE), []);
      const [again] = await store.claimDue(T0 + 5_000, 10, LEASE);
      assert.equal(again?.scheduleStep, 1);
      const gone: DeliveryOutcome = {
        ...retry,
        status: 'failed',
        nextAttemptAt: null,
        scheduleStep: 2,
        disable: 'gone',
      };
      await store.completeAttempt(again!, attempt(410), gone, new Date(T0 + 5_000));
      const failed = await store.findDelivery(id!);
      assert.equal(failed?.status, 'failed');
      assert.deepEqual(
        failed?.attempts.map((a) => a.statusCode),
        [410, null],
      );
      const disabled = await store.findEndpoint(e.id);
      assert.equal(disabled?.enabled, false);
      assert.equal(disabled?.disabledReason, 'gone');
      // A disabled endpoint's deliveries wait; resending is refused by the service, not the store.
      await store.recordEvent(event());
      assert.deepEqual(await store.claimDue(T0 + 10_000, 10, LEASE), []);
    });

    it('holds a scheduled event until it is due', async () => {
      await store.insertEndpoint(endpoint());
      await store.recordEvent(event({ type: 'key.expired', deliverAt: T0 + 86_400_000 }));
      assert.deepEqual(await store.claimDue(T0 + 86_399_999, 10, LEASE), []);
      const [claim] = await store.claimDue(T0 + 86_400_000, 10, LEASE);
      assert.equal(claim?.eventType, 'key.expired');
    });

    it('signs with the previous secret too while its overlap lasts', async () => {
      const e = endpoint({
        previousSecret: 'whsec_b2xkc2VjcmV0b2xkc2VjcmV0b2xkc2VjcmV0',
        previousSecretExpiresAt: new Date(T0 + 1_000).toISOString(),
      });
      await store.insertEndpoint(e);
      await store.recordEvent(event());
      await store.recordEvent(event());
      const [during] = await store.claimDue(T0, 1, LEASE);
      assert.deepEqual(during?.secrets, [e.secret, e.previousSecret]);
      const [after] = await store.claimDue(T0 + 1_000, 1, LEASE);
      assert.deepEqual(after?.secrets, [e.secret]);
    });

    it('pages deliveries newest first, resends a finished one and refuses one in flight', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(...(await store.recordEvent(event()))!);
      const first = await store.listDeliveries(e.id, { limit: 3, beforeSeq: null });
      assert.deepEqual(
        first.map((d) => d.id),
        ids.slice(2).reverse(),
      );
      const rest = await store.listDeliveries(e.id, { limit: 3, beforeSeq: first.at(-1)!.seq });
      assert.deepEqual(
        rest.map((d) => d.id),
        ids.slice(0, 2).reverse(),
      );
      const claims = await store.claimDue(T0, 5, LEASE);
      assert.equal(
        await store.requeueDelivery(claims[0]!.deliveryId, T0),
        false,
        'requeued a delivery in flight',
      );
      await store.completeAttempt(claims[0]!, attempt(200), succeeded, new Date(T0));
      assert.equal(await store.requeueDelivery(claims[0]!.deliveryId, T0 + 1), true);
      const requeued = await store.findDelivery(claims[0]!.deliveryId);
      assert.equal(requeued?.status, 'pending');
      assert.equal(requeued?.completedAt, null);
      const [resent] = await store.claimDue(T0 + 1, 1, LEASE);
      assert.equal(resent?.deliveryId, claims[0]!.deliveryId, 'the resent delivery kept its webhook-id');
    });

    it('deletes an endpoint with its deliveries and sends a test event to that endpoint only', async () => {
      const a = endpoint();
      const b = endpoint();
      await store.insertEndpoint(a);
      await store.insertEndpoint(b);
      const id = await store.recordTest(b.id, event({ type: 'alert.test' }));
      assert.equal((await store.findDelivery(id))?.endpointId, b.id);
      assert.deepEqual(await store.listDeliveries(a.id, { limit: 10, beforeSeq: null }), []);
      assert.equal(await store.countPending(), 1);
      await store.deleteEndpoint(b.id);
      assert.equal(await store.findDelivery(id), null);
      assert.deepEqual(await store.claimDue(T0, 10, LEASE), []);
    });

    it('lists recorded events after a position, oldest first, test alerts left out', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      await store.recordEvent(event({ type: 'key.created' }));
      const start = await store.latestEventCursor();
      await store.recordTest(e.id, event({ type: 'alert.test' }));
      const revoked = event({ type: 'key.revoked' });
      await store.recordEvent(revoked);
      await store.recordEvent({ ...event({ type: 'key.revoked' }), dedupeKey: revoked.dedupeKey });
      const expired = event({ type: 'key.expired' });
      await store.recordEvent(expired);
      const listed = await store.listEvents(start, 10);
      assert.deepEqual(
        listed.map((entry) => [entry.type, entry.body]),
        [
          ['key.revoked', revoked.body],
          ['key.expired', expired.body],
        ],
      );
      assert.deepEqual(await store.listEvents(listed[0]!.cursor, 1), [listed[1]]);
      assert.deepEqual(await store.listEvents(await store.latestEventCursor(), 10), []);
    });

    it('prunes finished deliveries completed before a time, leaving pending and newer ones', async () => {
      const e = endpoint();
      await store.insertEndpoint(e);
      const [old] = (await store.recordEvent(event()))!;
      const [newer] = (await store.recordEvent(event()))!;
      const [waiting] = (await store.recordEvent(event({ deliverAt: T0 + 86_400_000 })))!;
      const claims = await store.claimDue(T0, 10, LEASE);
      const byId = new Map(claims.map((c) => [c.deliveryId, c]));
      await store.completeAttempt(byId.get(old!)!, attempt(200), succeeded, new Date(T0 + 1_000));
      await store.completeAttempt(byId.get(newer!)!, attempt(200), succeeded, new Date(T0 + 5_000));
      assert.equal(await store.pruneFinished(T0 + 2_000, 100), 1);
      assert.equal(await store.findDelivery(old!), null);
      assert.deepEqual(
        (await store.listDeliveries(e.id, { limit: 10, beforeSeq: null })).map((d) => d.id),
        [waiting, newer],
      );
      // A resent delivery is no longer finished: it is kept.
      await store.requeueDelivery(newer!, T0 + 6_000);
      assert.equal(await store.pruneFinished(T0 + 10_000, 100), 0);
      assert.equal((await store.findDelivery(newer!))?.status, 'pending');
    });
  });
}
