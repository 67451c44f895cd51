import { type KeygateClient, KeygateProblemError, unwrap } from '@keygate/client';

/**
 * With an administrator's client (a key holding `auth:rw`), issues a key for an agency that may
 * only read the catalogue and fill carts, from its office network, until a fixed day. The token
 * is in `secret` of this one response: hand it over now, it is never shown again.
 */
export async function createAgencyKey(
  admin: KeygateClient,
  agency: { name: string; expiresAt: string; ipAllowlist: string[] },
) {
  try {
    return await unwrap(
      admin.POST('/v2/auth/keys', {
        body: {
          name: agency.name,
          environment: 'live',
          scopes: ['article:r', 'order:rw'],
          expiresAt: agency.expiresAt, // last valid day, YYYY-MM-DD
          ipAllowlist: agency.ipAllowlist, // e.g. ['203.0.113.0/24', '2001:db8:4::/48']
          rateLimit: { perMinute: 120 },
        },
      }),
    );
  } catch (error) {
    // A key may only hand out what it holds itself: wider scopes, another environment, a later
    // expiry or a wider IP range than the admin key's own are refused with ESCALATION_DENIED.
    if (error instanceof KeygateProblemError && error.code === 'ESCALATION_DENIED') {
      throw new Error(`not allowed to issue this key: ${error.problem.detail}`);
    }
    throw error;
  }
}
