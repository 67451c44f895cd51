import { generateWebhookSecret } from '@keygate/webhooks';
import type { Atomically } from '../atomically.ts';
import { CommerceError } from '../errors.ts';
import type {
  DeliveryRecord,
  DeliveryWithAttempts,
  EndpointRecord,
  EndpointStore,
} from './endpoint-store.ts';
import type { EventOutbox } from './outbox.ts';
import { checkUrlAddress, type LookupHost } from './url-policy.ts';

export interface NewEndpoint {
  url: string;
  description: string;
  eventTypes: string[] | null;
  enabled: boolean;
}

export type EndpointChanges = Partial<NewEndpoint>;

/** An endpoint with the secret it was just given: shown once, on create and on rotate. */
export type EndpointWithSecret = EndpointRecord & { secret: string };

/** The webhook endpoints API. Endpoints belong to the environment: any key with webhook:rw manages all. */
export interface EndpointService {
  /** Creates an endpoint with a new `whsec_` secret (ENDPOINT_URL_NOT_ALLOWED for a private address). */
  createEndpoint(input: NewEndpoint, keyId: string): Promise<EndpointWithSecret>;
  /** Every endpoint, oldest first. */
  listEndpoints(): EndpointRecord[];
  /** The endpoint (ENDPOINT_NOT_FOUND). */
  getEndpoint(id: string): EndpointRecord;
  /** Changes url, event filter, description or enabled; enabling clears the disabled reason and failure run. */
  updateEndpoint(id: string, changes: EndpointChanges): Promise<EndpointRecord>;
  /** Deletes the endpoint, its deliveries and their attempts. */
  deleteEndpoint(id: string): void;
  /** New secret; the old one keeps signing for `overlapHours` (0: closed at once). */
  rotateSecret(id: string, overlapHours: number): EndpointWithSecret;
  /** Ends a rotation's overlap now: only the new secret signs from here on. */
  closeOldSecret(id: string): EndpointRecord;
  /** Queues a `webhook.test` event to this endpoint (ENDPOINT_DISABLED); returns its delivery. */
  sendTestEvent(id: string): DeliveryRecord;
  /** A page of the endpoint's deliveries with their attempts, newest first. */
  listDeliveries(id: string, page: { limit: number; beforeSeq: number | null }): DeliveryWithAttempts[];
  /** Sends a delivery again with the same webhook-id (DELIVERY_NOT_FOUND, ENDPOINT_DISABLED, DELIVERY_IN_FLIGHT). */
  resendDelivery(id: string): DeliveryRecord;
}

export function createEndpointService(deps: {
  store: EndpointStore;
  outbox: EventOutbox;
  atomically: Atomically;
  clock: () => Date;
  newEndpointId: () => string;
  allowPrivateAddresses: boolean;
  lookupHost: LookupHost;
  /** Wakes the delivery worker (it runs after the current transaction). */
  notify: () => void;
}): EndpointService {
  const { store, atomically, clock } = deps;
  const now = () => clock().toISOString();

  function getEndpoint(id: string): EndpointRecord {
    const endpoint = store.findEndpoint(id);
    if (!endpoint) throw new CommerceError('ENDPOINT_NOT_FOUND', `There is no webhook endpoint ${id}.`);
    return withoutExpiredSecret(endpoint, now());
  }

  async function assertAllowedUrl(url: string): Promise<void> {
    const check = await checkUrlAddress(new URL(url), {
      allowPrivate: deps.allowPrivateAddresses,
      lookupHost: deps.lookupHost,
    });
    if (!check.ok) {
      throw new CommerceError(
        'ENDPOINT_URL_NOT_ALLOWED',
        `The endpoint URL is not allowed: ${check.reason}.`,
        {
          errors: [{ detail: check.reason, pointer: '/url' }],
        },
      );
    }
  }

  function getDelivery(id: string): DeliveryRecord {
    const delivery = store.findDelivery(id);
    if (!delivery) throw new CommerceError('DELIVERY_NOT_FOUND', `There is no webhook delivery ${id}.`);
    return delivery;
  }

  function assertEnabled(endpoint: EndpointRecord): void {
    if (!endpoint.enabled) {
      throw new CommerceError(
        'ENDPOINT_DISABLED',
        `Webhook endpoint ${endpoint.id} is disabled; enable it first.`,
        {
          disabledReason: endpoint.disabledReason,
        },
      );
    }
  }

  return {
    async createEndpoint(input, keyId) {
      await assertAllowedUrl(input.url);
      const at = now();
      const endpoint: EndpointRecord = {
        id: deps.newEndpointId(),
        ...input,
        disabledReason: input.enabled ? null : 'manual',
        secret: generateWebhookSecret(),
        previousSecret: null,
        previousSecretExpiresAt: null,
        failingSince: null,
        createdByKeyId: keyId,
        createdAt: at,
        updatedAt: at,
      };
      atomically(() => store.insertEndpoint(endpoint));
      return endpoint;
    },
    listEndpoints: () => store.listEndpoints().map((e) => withoutExpiredSecret(e, now())),
    getEndpoint,
    async updateEndpoint(id, changes) {
      getEndpoint(id);
      if (changes.url !== undefined) await assertAllowedUrl(changes.url);
      return atomically(() => {
        const updated = applyChanges(getEndpoint(id), changes, now());
        store.saveEndpoint(updated);
        return updated;
      });
    },
    deleteEndpoint(id) {
      atomically(() => store.deleteEndpoint(getEndpoint(id).id));
    },
    rotateSecret(id, overlapHours) {
      return atomically(() => {
        const endpoint = getEndpoint(id);
        const at = clock();
        const expiresAt = new Date(at.getTime() + overlapHours * 3_600_000).toISOString();
        const rotated: EndpointRecord = {
          ...endpoint,
          secret: generateWebhookSecret(),
          previousSecret: overlapHours > 0 ? endpoint.secret : null,
          previousSecretExpiresAt: overlapHours > 0 ? expiresAt : null,
          updatedAt: at.toISOString(),
        };
        store.saveEndpoint(rotated);
        return rotated;
      });
    },
    closeOldSecret(id) {
      return atomically(() => {
        const endpoint = getEndpoint(id);
        if (endpoint.previousSecret === null) return endpoint;
        const closed = { ...endpoint, previousSecret: null, previousSecretExpiresAt: null, updatedAt: now() };
        store.saveEndpoint(closed);
        return closed;
      });
    },
    sendTestEvent(id) {
      return atomically(() => {
        const endpoint = getEndpoint(id);
        assertEnabled(endpoint);
        const recorded = deps.outbox.recordTest(id, {
          endpointId: id,
          message: 'A test event from keygate commerce; no data changed.',
        });
        return getDelivery(recorded.deliveryIds[0]!);
      });
    },
    listDeliveries(id, page) {
      getEndpoint(id);
      return store.listDeliveries(id, page);
    },
    resendDelivery(id) {
      const delivery = atomically(() => {
        const found = getDelivery(id);
        assertEnabled(getEndpoint(found.endpointId));
        if (found.status === 'delivering') {
          throw new CommerceError(
            'DELIVERY_IN_FLIGHT',
            `Delivery ${id} is being attempted right now; try again shortly.`,
          );
        }
        store.requeueDelivery(id, now());
        return getDelivery(id);
      });
      deps.notify();
      return delivery;
    },
  };
}

/** The endpoint without a previous secret whose overlap has ended. */
function withoutExpiredSecret(endpoint: EndpointRecord, at: string): EndpointRecord {
  const expiresAt = endpoint.previousSecretExpiresAt;
  if (expiresAt === null || expiresAt > at) return endpoint;
  return { ...endpoint, previousSecret: null, previousSecretExpiresAt: null };
}

function applyChanges(endpoint: EndpointRecord, changes: EndpointChanges, at: string): EndpointRecord {
  const updated = { ...endpoint, updatedAt: at };
  if (changes.url !== undefined) updated.url = changes.url;
  if (changes.description !== undefined) updated.description = changes.description;
  if (changes.eventTypes !== undefined) updated.eventTypes = changes.eventTypes;
  if (changes.enabled === true && !endpoint.enabled) {
    Object.assign(updated, { enabled: true, disabledReason: null, failingSince: null });
  }
  if (changes.enabled === false && endpoint.enabled) {
    Object.assign(updated, { enabled: false, disabledReason: 'manual' });
  }
  return updated;
}
