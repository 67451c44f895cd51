import type { Identity, Plan } from '../../model/budget.ts';
import type { identities, plans } from './schema.ts';

// Plan and identity rows → model: drizzle's rows, and the raw rows of the prepared point reads.
type PlanRow = typeof plans.$inferSelect;
type IdentityRow = typeof identities.$inferSelect;

/** Plan row (drizzle) → model. */
export function planFromRow(row: PlanRow): Plan {
  return { ...row, credits: row.credits as Plan['credits'] };
}

/** Identity row (drizzle) → model. */
export function identityFromRow(row: IdentityRow): Identity {
  return { ...row };
}

/** A plans row as a prepared statement returns it (snake_case, JSON as text). */
export interface RawPlanRow {
  id: string;
  name: string;
  limits: string;
  quotas: string;
  credits: string | null;
  created_at: string;
  updated_at: string;
  version: number;
}

/** An identities row as a prepared statement returns it. */
export interface RawIdentityRow extends Omit<RawPlanRow, 'name'> {
  external_id: string;
  environment: Identity['environment'];
  plan_id: string | null;
  meta: string;
}

/** Plan row (prepared statement) → model. */
export function planFromRaw(row: RawPlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    limits: JSON.parse(row.limits),
    quotas: JSON.parse(row.quotas),
    credits: row.credits === null ? null : JSON.parse(row.credits),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** Identity row (prepared statement) → model. */
export function identityFromRaw(row: RawIdentityRow): Identity {
  return {
    id: row.id,
    externalId: row.external_id,
    environment: row.environment,
    planId: row.plan_id,
    meta: JSON.parse(row.meta),
    limits: JSON.parse(row.limits),
    quotas: JSON.parse(row.quotas),
    credits: row.credits === null ? null : JSON.parse(row.credits),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}
