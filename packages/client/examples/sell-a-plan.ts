import { type KeygateClient, KeygateRateLimitError, ProblemCode, unwrap } from '@keygate/client';

/**
 * With an administrator's client (`auth:rw`), sells a customer a plan of 1,000 calls a day and a
 * prepaid balance: the plan, the customer as an identity on it, and a key of that identity. All
 * the identity's keys share its quota and credits.
 */
export async function sellPlan(admin: KeygateClient, customerId: string) {
  const plan = await unwrap(
    admin.POST('/v2/auth/plans', {
      body: {
        name: 'Starter',
        limits: [{ name: 'minute', window: 'minute', limit: 100 }],
        quotas: [{ period: 'day', limit: 1000 }],
      },
    }),
  );
  const identity = await unwrap(
    admin.POST('/v2/auth/identities', {
      body: { externalId: customerId, planId: plan.id, credits: { remaining: 5000 } },
    }),
  );
  const key = await unwrap(
    admin.POST('/v2/auth/keys', {
      body: { name: `${customerId}-shop`, scopes: ['article:r'], identityId: identity.id },
    }),
  );
  return { plan, identity, secret: key.secret };
}

/**
 * Reads the catalogue with the customer's key; a spent quota or balance is not retried (the
 * client waits only for a short `Retry-After`), so it tells the customer when to come back.
 */
export async function readCatalogue(shop: KeygateClient) {
  try {
    return await unwrap(shop.GET('/v2/catalog/products', { params: { header: { 'X-Channel': 'WEB_DE' } } }));
  } catch (error) {
    if (error instanceof KeygateRateLimitError && error.code === ProblemCode.QUOTA_EXCEEDED) {
      throw new Error(`the ${error.policy} quota is used up; it resets in ${error.retryAfter} s`);
    }
    if (error instanceof KeygateRateLimitError && error.code === ProblemCode.CREDITS_EXHAUSTED) {
      throw new Error('no credits left: top up with POST /v2/auth/identities/{id}/credits');
    }
    throw error;
  }
}

/** Tops up an identity's balance (counted once even when retried) and reads this month's usage. */
export async function topUpAndBill(admin: KeygateClient, identityId: string, credits: number) {
  const params = { path: { id: identityId } };
  const balance = await unwrap(
    admin.POST('/v2/auth/identities/{id}/credits', { params, body: { increment: credits } }),
  );
  const period = new Date().toISOString().slice(0, 7);
  const usage = await unwrap(
    admin.GET('/v2/auth/identities/{id}/usage', { params: { ...params, query: { period } } }),
  );
  // The billing export of the month, every identity, as CSV text (`parseAs: 'stream'` for a stream).
  const { data: csv } = await admin.GET('/v2/auth/usage/export', {
    params: { query: { period, format: 'csv' } },
    parseAs: 'text',
  });
  return { remaining: balance.remaining, calls: usage.total.calls, byOutcome: usage.outcomes, csv };
}
