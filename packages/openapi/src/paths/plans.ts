import {
  CreateIdentityInputSchema,
  CreatePlanInputSchema,
  CreditsOperationSchema,
  IDENTITIES_PREFIX,
  ListIdentitiesQuerySchema,
  PeriodUsageQuerySchema,
  PLANS_PREFIX,
  UpdateIdentityInputSchema,
  UpdatePlanInputSchema,
  USAGE_PREFIX,
  UsageExportQuerySchema,
} from '@keygate/contracts/gateway';
import type { OperationSpec } from '../operation.ts';
import { requestComponent } from '../registries.ts';
import { IdentityWithKeysSchema } from '../schemas/keys.ts';
import {
  CreditsSchema,
  IdentityPageSchema,
  IdentitySchema,
  PeriodUsageSchema,
  PlanListSchema,
  PlanSchema,
  UsageExportSchema,
} from '../schemas/plans.ts';
import { managementErrors } from './errors.ts';

const CreatePlanRequest = requestComponent('CreatePlanRequest', CreatePlanInputSchema);
const UpdatePlanRequest = requestComponent('UpdatePlanRequest', UpdatePlanInputSchema);
const CreateIdentityRequest = requestComponent('CreateIdentityRequest', CreateIdentityInputSchema);
const CreditsOperationRequest = requestComponent('CreditsOperation', CreditsOperationSchema);
const UpdateIdentityRequest = requestComponent('UpdateIdentityRequest', UpdateIdentityInputSchema);

const CHANGE_ERRORS = ['CONFLICT', 'OUTCOME_UNKNOWN'] as const;

/** Plans (`/v2/auth/plans`, scope auth:rw): limits, quotas and credits refills keys and identities follow. */
export const PLAN_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: PLANS_PREFIX,
    operationId: 'createPlan',
    tag: 'Plans',
    kind: 'management',
    summary: 'Create a plan',
    description:
      'A plan holds named rate limits (second, minute, hour windows), quotas per calendar period (day, week, month; UTC) and an optional credits refill. Plans belong to no environment.',
    body: { schema: CreatePlanRequest, required: true },
    success: { status: 201, description: 'The plan.', schema: PlanSchema, location: true },
    errors: managementErrors(['VALIDATION_FAILED', ...CHANGE_ERRORS], { body: true }),
  },
  {
    method: 'GET',
    path: PLANS_PREFIX,
    operationId: 'listPlans',
    tag: 'Plans',
    kind: 'management',
    summary: 'List plans',
    description: 'Every plan, newest first.',
    success: { status: 200, description: 'The plans.', schema: PlanListSchema },
    errors: managementErrors([]),
  },
  {
    method: 'GET',
    path: `${PLANS_PREFIX}/{id}`,
    operationId: 'getPlan',
    tag: 'Plans',
    kind: 'management',
    summary: 'Get a plan',
    success: { status: 200, description: 'The plan.', schema: PlanSchema },
    errors: managementErrors(['PLAN_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: `${PLANS_PREFIX}/{id}`,
    operationId: 'updatePlan',
    tag: 'Plans',
    kind: 'management',
    summary: 'Change a plan',
    description:
      'Replaces the members given (limits and quotas as whole lists). Every key and identity on the plan follows the change at once, on every gateway instance.',
    body: { schema: UpdatePlanRequest, required: true },
    success: { status: 200, description: 'The changed plan.', schema: PlanSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'PLAN_NOT_FOUND', ...CHANGE_ERRORS], { body: true }),
  },
  {
    method: 'DELETE',
    path: `${PLANS_PREFIX}/{id}`,
    operationId: 'deletePlan',
    tag: 'Plans',
    kind: 'management',
    summary: 'Delete a plan',
    description: 'Refused (409 PLAN_IN_USE) while a key or an identity names the plan.',
    success: { status: 204, description: 'Deleted.' },
    errors: managementErrors(['PLAN_NOT_FOUND', 'PLAN_IN_USE', ...CHANGE_ERRORS]),
  },
];

/** Identities (`/v2/auth/identities`, scope auth:rw): your customers, whose keys share one budget. */
export const IDENTITY_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'POST',
    path: IDENTITIES_PREFIX,
    operationId: 'createIdentity',
    tag: 'Identities',
    kind: 'management',
    summary: 'Create an identity',
    description:
      "An identity is your customer (`externalId`, unique per environment). Its keys share its plan's limits, quotas and credits. Created in the caller's environment (another is 403 ESCALATION_DENIED).",
    body: { schema: CreateIdentityRequest, required: true },
    success: { status: 201, description: 'The identity.', schema: IdentitySchema, location: true },
    errors: managementErrors(
      ['VALIDATION_FAILED', 'ESCALATION_DENIED', 'PLAN_NOT_FOUND', 'IDENTITY_EXISTS', ...CHANGE_ERRORS],
      { body: true },
    ),
  },
  {
    method: 'GET',
    path: IDENTITIES_PREFIX,
    operationId: 'listIdentities',
    tag: 'Identities',
    kind: 'management',
    summary: 'List identities',
    description: "Identities of the caller's environment, newest first, a page at a time.",
    query: ListIdentitiesQuerySchema,
    success: { status: 200, description: 'A page of identities.', schema: IdentityPageSchema },
    errors: managementErrors(['VALIDATION_FAILED']),
  },
  {
    method: 'GET',
    path: `${IDENTITIES_PREFIX}/{id}`,
    operationId: 'getIdentity',
    tag: 'Identities',
    kind: 'management',
    summary: 'Get an identity and its keys',
    success: { status: 200, description: 'The identity with its keys.', schema: IdentityWithKeysSchema },
    errors: managementErrors(['IDENTITY_NOT_FOUND']),
  },
  {
    method: 'PATCH',
    path: `${IDENTITIES_PREFIX}/{id}`,
    operationId: 'updateIdentity',
    tag: 'Identities',
    kind: 'management',
    summary: 'Change an identity',
    description:
      'Replaces the members given (plan, meta, overrides); its keys follow at once. `credits: {lowAt}` sets the `credits.low` level of an identity holding credits of its own (`null` removes it, the plan’s applies again; 409 CREDITS_NOT_HELD for one without); the balance changes through its own endpoint.',
    body: { schema: UpdateIdentityRequest, required: true },
    success: { status: 200, description: 'The changed identity.', schema: IdentitySchema },
    errors: managementErrors(
      ['VALIDATION_FAILED', 'IDENTITY_NOT_FOUND', 'PLAN_NOT_FOUND', 'CREDITS_NOT_HELD', ...CHANGE_ERRORS],
      { body: true },
    ),
  },
  {
    method: 'DELETE',
    path: `${IDENTITIES_PREFIX}/{id}`,
    operationId: 'deleteIdentity',
    tag: 'Identities',
    kind: 'management',
    summary: 'Delete an identity',
    description: 'Refused (409 IDENTITY_HAS_KEYS) while a key, revoked ones included, belongs to it.',
    success: { status: 204, description: 'Deleted.' },
    errors: managementErrors(['IDENTITY_NOT_FOUND', 'IDENTITY_HAS_KEYS', ...CHANGE_ERRORS]),
  },
];

const CREDITS_DESCRIPTION =
  'Exactly one of `{set}`, `{increment}` or `{decrement}` (never below zero). Honours `Idempotency-Key`, so a retried top-up counts once.';

/** Credits of a key or an identity, billing usage by period, and the billing export. */
export const BUDGET_OPERATIONS: readonly OperationSpec[] = [
  {
    method: 'GET',
    path: '/v2/auth/keys/{id}/credits',
    operationId: 'getKeyCredits',
    tag: 'API keys',
    kind: 'management',
    summary: "Get an API key's credits",
    description:
      "The key's own balance, refilled if a refill came due. A key of an identity spends the identity's (409 CREDITS_NOT_HELD).",
    success: { status: 200, description: 'The balance.', schema: CreditsSchema },
    errors: managementErrors(['KEY_NOT_FOUND', 'CREDITS_NOT_HELD']),
  },
  {
    method: 'POST',
    path: '/v2/auth/keys/{id}/credits',
    operationId: 'changeKeyCredits',
    tag: 'API keys',
    kind: 'management',
    summary: "Set, add to or take from an API key's credits",
    description: CREDITS_DESCRIPTION,
    body: { schema: CreditsOperationRequest, required: true },
    success: { status: 200, description: 'The balance after the change.', schema: CreditsSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'KEY_NOT_FOUND', 'CREDITS_NOT_HELD'], { body: true }),
  },
  {
    method: 'GET',
    path: `${IDENTITIES_PREFIX}/{id}/credits`,
    operationId: 'getIdentityCredits',
    tag: 'Identities',
    kind: 'management',
    summary: "Get an identity's credits",
    description: 'The balance all its keys spend from, refilled if a refill came due.',
    success: { status: 200, description: 'The balance.', schema: CreditsSchema },
    errors: managementErrors(['IDENTITY_NOT_FOUND', 'CREDITS_NOT_HELD']),
  },
  {
    method: 'POST',
    path: `${IDENTITIES_PREFIX}/{id}/credits`,
    operationId: 'changeIdentityCredits',
    tag: 'Identities',
    kind: 'management',
    summary: "Set, add to or take from an identity's credits",
    description: CREDITS_DESCRIPTION,
    body: { schema: CreditsOperationRequest, required: true },
    success: { status: 200, description: 'The balance after the change.', schema: CreditsSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'IDENTITY_NOT_FOUND', 'CREDITS_NOT_HELD'], { body: true }),
  },
  {
    method: 'GET',
    path: `${IDENTITIES_PREFIX}/{id}/usage`,
    operationId: 'getIdentityUsage',
    tag: 'Identities',
    kind: 'management',
    summary: "Get an identity's usage in a period",
    description:
      'Calls and spent cost of all its keys in a month (`2026-11`), ISO week (`2026-W48`) or day (`2026-11-28`), UTC, by outcome.',
    query: PeriodUsageQuerySchema,
    success: { status: 200, description: 'The usage.', schema: PeriodUsageSchema },
    errors: managementErrors(['VALIDATION_FAILED', 'IDENTITY_NOT_FOUND']),
  },
  {
    method: 'GET',
    path: `${USAGE_PREFIX}/export`,
    operationId: 'exportUsage',
    tag: 'Identities',
    kind: 'management',
    summary: 'Export the usage of a period for billing',
    description:
      "Every identity of the caller's environment, and every key without an identity, so each call is billed once. Two exports of a closed period are byte-identical.",
    query: UsageExportQuerySchema,
    success: {
      status: 200,
      description: 'The export.',
      schema: UsageExportSchema,
      contentTypes: ['text/csv', 'application/x-ndjson'],
    },
    errors: managementErrors(['VALIDATION_FAILED']),
  },
];
