import {
  ActivityQuerySchema,
  ChangeScopesInputSchema,
  CloseSecretInputSchema,
  CreateKeyInputSchema,
  KeyUsageQuerySchema,
  ListKeysQuerySchema,
  LogsQuerySchema,
  RotateKeyInputSchema,
  UpdateKeyBudgetInputSchema,
} from '@keygate/contracts/gateway';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import {
  ActivityPageSchema,
  ApiKeyListSchema,
  ApiKeySchema,
  ApiKeyWithSecretSchema,
  ApiLogPageSchema,
  KeyUsageSchema,
} from '../schemas/keys.ts';
import { managementErrors } from './errors.ts';

const CreateKeyRequest = requestComponent('CreateKeyRequest', CreateKeyInputSchema);
const ChangeScopesRequest = requestComponent('ChangeScopesRequest', ChangeScopesInputSchema);
const RotateKeyRequest = requestComponent('RotateKeyRequest', RotateKeyInputSchema);
const CloseOldSecretRequest = requestComponent('CloseOldSecretRequest', CloseSecretInputSchema);
const UpdateKeyBudgetRequest = requestComponent('UpdateKeyBudgetRequest', UpdateKeyBudgetInputSchema);

const tag = 'Keys';
const BASE = '/v2/auth/keys';
const ESCALATION =
  ' A key creates or changes keys only with scopes it holds itself, only in its own environment, and never grants `auth:rw` (403 ESCALATION_DENIED).';

/** The key-management API the gateway answers itself (`/v2/auth/keys`, scope auth:rw). */
export const KEY_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: BASE,
    operationId: 'createKey',
    tag,
    kind: 'management',
    summary: 'Create an API key',
    description: `Creates a key in the caller's environment (or the given one, which must be the caller's). The token (\`secret\`) is in this response only. \`identityId\` (an identity of the key's environment), \`planId\`, \`limits\`, \`quotas\` and \`credits\` set the key's budget.${ESCALATION}`,
    body: { schema: CreateKeyRequest, required: true },
    success: {
      status: 201,
      description: 'The key with its token.',
      schema: ApiKeyWithSecretSchema,
      location: true,
    },
    errors: managementErrors(
      [
        'VALIDATION_FAILED',
        'ESCALATION_DENIED',
        'PLAN_NOT_FOUND',
        'IDENTITY_NOT_FOUND',
        'CONFLICT',
        'OUTCOME_UNKNOWN',
      ],
      { body: true },
    ),
  },
  {
    method: 'GET',
    path: BASE,
    operationId: 'listKeys',
    tag,
    kind: 'management',
    summary: 'List API keys',
    description: "Keys of the caller's environment, newest first.",
    query: ListKeysQuerySchema,
    success: { status: 200, description: 'The keys.', schema: ApiKeyListSchema },
    errors: managementErrors(['VALIDATION_FAILED']),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}`,
    operationId: 'getKey',
    tag,
    kind: 'management',
    summary: 'Get an API key',
    success: { status: 200, description: 'The key (never its token).', schema: ApiKeySchema },
    errors: managementErrors(['KEY_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: `${BASE}/{id}`,
    operationId: 'updateKeyBudget',
    tag,
    kind: 'management',
    summary: 'Change the plan, identity and overrides of an API key',
    description:
      'Replaces the members given (`null` leaves a plan or an identity); logged as `key.budget_changed`. The balance changes through its own endpoint; `credits: {lowAt}` sets the `credits.low` level of a key holding credits of its own (`null` removes it, the plan’s applies again; 409 CREDITS_NOT_HELD for a key without).',
    body: { schema: UpdateKeyBudgetRequest, required: true },
    success: { status: 200, description: 'The changed key.', schema: ApiKeySchema },
    errors: managementErrors(
      [
        'VALIDATION_FAILED',
        'KEY_NOT_FOUND',
        'PLAN_NOT_FOUND',
        'IDENTITY_NOT_FOUND',
        'ESCALATION_DENIED',
        'CREDITS_NOT_HELD',
        'CONFLICT',
        'OUTCOME_UNKNOWN',
      ],
      { body: true },
    ),
  },
  {
    method: 'DELETE',
    path: `${BASE}/{id}`,
    operationId: 'revokeKey',
    tag,
    kind: 'management',
    summary: 'Revoke an API key',
    description: `Revokes the key and closes all its secrets; every gateway instance refuses it from the next request on.${ESCALATION}`,
    success: { status: 200, description: 'The revoked key, in its final state.', schema: ApiKeySchema },
    errors: managementErrors(['KEY_NOT_FOUND', 'ESCALATION_DENIED', 'CONFLICT', 'OUTCOME_UNKNOWN']),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}/scopes`,
    operationId: 'changeKeyScopes',
    tag,
    kind: 'management',
    summary: 'Replace the scopes of an API key',
    description: `Sets the complete new scope list.${ESCALATION}`,
    body: { schema: ChangeScopesRequest, required: true },
    success: { status: 200, description: 'The changed key.', schema: ApiKeySchema },
    errors: managementErrors(
      [
        'VALIDATION_FAILED',
        'KEY_NOT_FOUND',
        'KEY_NOT_ACTIVE',
        'ESCALATION_DENIED',
        'CONFLICT',
        'OUTCOME_UNKNOWN',
      ],
      { body: true },
    ),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:rotate`,
    operationId: 'rotateKey',
    tag,
    kind: 'management',
    summary: 'Rotate an API key without downtime',
    description:
      'Adds a new secret (returned here only) and keeps the old one working for `overlapDays` (0..7, default 1; 0 closes it at once). Deploy the new token, then close the old secret with `:close-old-secret` or let the overlap end. Refused while a previous rotation still overlaps.',
    body: { schema: RotateKeyRequest, required: false },
    success: { status: 200, description: 'The key with its new token.', schema: ApiKeyWithSecretSchema },
    errors: managementErrors(
      [
        'VALIDATION_FAILED',
        'KEY_NOT_FOUND',
        'KEY_NOT_ACTIVE',
        'ROTATION_IN_PROGRESS',
        'ESCALATION_DENIED',
        'CONFLICT',
        'OUTCOME_UNKNOWN',
      ],
      { body: true },
    ),
  },
  {
    method: 'POST',
    path: `${BASE}/{id}:close-old-secret`,
    operationId: 'closeOldKeySecret',
    tag,
    kind: 'management',
    summary: 'Close the old secret of a rotation now',
    description: 'Closes the given old secret, or every old secret still open.',
    body: { schema: CloseOldSecretRequest, required: false },
    success: { status: 200, description: 'The key.', schema: ApiKeySchema },
    errors: managementErrors(
      [
        'VALIDATION_FAILED',
        'KEY_NOT_FOUND',
        'KEY_NOT_ACTIVE',
        'SECRET_NOT_FOUND',
        'NO_ROTATION_IN_PROGRESS',
        'ESCALATION_DENIED',
        'CONFLICT',
        'OUTCOME_UNKNOWN',
      ],
      { body: true },
    ),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}/usage`,
    operationId: 'getKeyUsage',
    tag,
    kind: 'management',
    summary: 'Get the usage of an API key',
    description:
      'Calls, errors and gateway latency in [from, to) (default the last 24 h, at most 31 days), in total and per secret. With `period` (`2026-11`, `2026-W48`, `2026-11-28`) instead, those of the period and its `billing`: calls and spent cost by outcome.',
    query: KeyUsageQuerySchema,
    success: { status: 200, description: 'The usage.', schema: KeyUsageSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'KEY_NOT_FOUND']),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}/activity`,
    operationId: 'listKeyActivity',
    tag,
    kind: 'management',
    summary: 'List the activity log of an API key',
    description:
      'Every change to the key (create, scopes, rotate, secret closed, revoke, expiry reminder), newest first.',
    query: ActivityQuerySchema,
    success: { status: 200, description: 'A page of activity.', schema: ActivityPageSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'KEY_NOT_FOUND']),
  },
  {
    method: 'GET',
    path: `${BASE}/{id}/logs`,
    operationId: 'listKeyLogs',
    tag,
    kind: 'management',
    summary: 'List the API calls of an API key',
    description:
      'One line per call through the gateway (method, path, status, latency, secret, client IP), newest first.',
    query: LogsQuerySchema,
    success: { status: 200, description: 'A page of calls.', schema: ApiLogPageSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'KEY_NOT_FOUND']),
  },
];
