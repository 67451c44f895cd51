import type { CreateAlertEndpointInput, UpdateAlertEndpointInput } from '@keygate/contracts/gateway';
import { checkUrlAddress, generateWebhookSecret, type LookupHost } from '@keygate/webhooks';
import { GatewayError } from '../errors.ts';
import { newId } from '../keys/token.ts';
import type { AlertDeliveryRecord, AlertEndpointRecord, AlertStore } from '../model/alert-store.ts';
import type { AlertOutbox } from './alert-outbox.ts';

/** An endpoint with the secret it was just given: shown once, on create and on rotate. */
export type AlertEndpointWithSecret = AlertEndpointRecord;

/** The alert endpoints API: endpoints belong to the gateway; any key with `auth:rw` manages all. */
export interface AlertService {
  createEndpoint(input: CreateAlertEndpointInput, keyId: string): Promise<AlertEndpointWithSecret>;
  listEndpoints(): Promise<AlertEndpointRecord[]>;
  getEndpoint(id: string): Promise<AlertEndpointRecord>;
  updateEndpoint(id: string, changes: UpdateAlertEndpointInput): Promise<AlertEndpointRecord>;
  deleteEndpoint(id: string): Promise<void>;
  /** A new secret; the old one keeps signing for `overlapHours` (0: closed at once). */
  rotateSecret(id: string, overlapHours: number): Promise<AlertEndpointWithSecret>;
  /** Queues an `alert.test` event to this endpoint (ALERT_ENDPOINT_DISABLED); returns its delivery. */
  sendTest(id: string): Promise<AlertDeliveryRecord>;
  listDeliveries(
    id: string,
    page: { limit: number; beforeSeq: number | null },
  ): Promise<AlertDeliveryRecord[]>;
  /** Sends a delivery again with the same webhook-id (ALERT_DELIVERY_IN_FLIGHT while an attempt runs). */
  resendDelivery(id: string): Promise<AlertDeliveryRecord>;
}

export function createAlertService(deps: {
  store: AlertStore;
  outbox: AlertOutbox;
  clock: () => number;
  allowPrivateAddresses: boolean;
  lookupHost: LookupHost;
  notify(): void;
}): AlertService {
  const { store, clock } = deps;
  const now = () => new Date(clock()).toISOString();

  async function getEndpoint(id: string): Promise<AlertEndpointRecord> {
    const endpoint = await store.findEndpoint(id);
    if (!endpoint) throw new GatewayError('ALERT_ENDPOINT_NOT_FOUND', `There is no alert endpoint ${id}.`);
    return endpoint;
  }

  async function getDelivery(id: string): Promise<AlertDeliveryRecord> {
    const delivery = await store.findDelivery(id);
    if (!delivery) throw new GatewayError('ALERT_DELIVERY_NOT_FOUND', `There is no alert delivery ${id}.`);
    return delivery;
  }

  async function assertAllowedUrl(url: string): Promise<void> {
    const check = await checkUrlAddress(new URL(url), {
      allowPrivate: deps.allowPrivateAddresses,
      lookupHost: deps.lookupHost,
    });
    if (!check.ok) {
      throw new GatewayError('ALERT_URL_NOT_ALLOWED', `The endpoint URL is not allowed: ${check.reason}.`, {
        errors: [{ detail: check.reason, pointer: '/url' }],
      });
    }
  }

  function assertEnabled(endpoint: AlertEndpointRecord): void {
    if (!endpoint.enabled) {
      throw new GatewayError(
        'ALERT_ENDPOINT_DISABLED',
        `Alert endpoint ${endpoint.id} is disabled; enable it first.`,
        {
          disabledReason: endpoint.disabledReason,
        },
      );
    }
  }

  async function save(endpoint: AlertEndpointRecord): Promise<AlertEndpointRecord> {
    if (!(await store.saveEndpoint(endpoint)))
      throw new GatewayError('ALERT_ENDPOINT_NOT_FOUND', `There is no alert endpoint ${endpoint.id}.`);
    return endpoint;
  }

  return {
    async createEndpoint(input, keyId) {
      await assertAllowedUrl(input.url);
      const at = now();
      const endpoint: AlertEndpointRecord = {
        id: newId('aep'),
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes === null ? null : [...new Set(input.eventTypes)],
        identityIds: input.identityIds === null ? null : [...new Set(input.identityIds)],
        enabled: input.enabled,
        disabledReason: input.enabled ? null : 'manual',
        secret: generateWebhookSecret(),
        previousSecret: null,
        previousSecretExpiresAt: null,
        failingSince: null,
        createdByKeyId: keyId,
        createdAt: at,
        updatedAt: at,
      };
      await store.insertEndpoint(endpoint);
      return endpoint;
    },
    listEndpoints: () => store.listEndpoints(),
    getEndpoint,
    async updateEndpoint(id, changes) {
      const endpoint = await getEndpoint(id);
      if (changes.url !== undefined) await assertAllowedUrl(changes.url);
      const updated: AlertEndpointRecord = { ...endpoint, updatedAt: now() };
      if (changes.url !== undefined) updated.url = changes.url;
      if (changes.description !== undefined) updated.description = changes.description;
      if (changes.eventTypes !== undefined)
        updated.eventTypes = changes.eventTypes === null ? null : [...new Set(changes.eventTypes)];
      if (changes.identityIds !== undefined)
        updated.identityIds = changes.identityIds === null ? null : [...new Set(changes.identityIds)];
      if (changes.enabled === true && !endpoint.enabled)
        Object.assign(updated, { enabled: true, disabledReason: null, failingSince: null });
      if (changes.enabled === false && endpoint.enabled)
        Object.assign(updated, { enabled: false, disabledReason: 'manual' });
      await save(updated);
      if (updated.enabled && !endpoint.enabled) deps.notify();
      return updated;
    },
    async deleteEndpoint(id) {
      if (!(await store.deleteEndpoint(id)))
        throw new GatewayError('ALERT_ENDPOINT_NOT_FOUND', `There is no alert endpoint ${id}.`);
    },
    async rotateSecret(id, overlapHours) {
      const endpoint = await getEndpoint(id);
      const at = clock();
      return save({
        ...endpoint,
        secret: generateWebhookSecret(),
        previousSecret: overlapHours > 0 ? endpoint.secret : null,
        previousSecretExpiresAt:
          overlapHours > 0 ? new Date(at + overlapHours * 3_600_000).toISOString() : null,
        updatedAt: new Date(at).toISOString(),
      });
    },
    async sendTest(id) {
      const endpoint = await getEndpoint(id);
      assertEnabled(endpoint);
      return getDelivery(await deps.outbox.recordTest(endpoint));
    },
    async listDeliveries(id, page) {
      await getEndpoint(id);
      return store.listDeliveries(id, page);
    },
    async resendDelivery(id) {
      const delivery = await getDelivery(id);
      assertEnabled(await getEndpoint(delivery.endpointId));
      if (!(await store.requeueDelivery(id, clock())))
        throw new GatewayError(
          'ALERT_DELIVERY_IN_FLIGHT',
          `Delivery ${id} is being attempted right now; try again shortly.`,
        );
      deps.notify();
      return getDelivery(id);
    },
  };
}
