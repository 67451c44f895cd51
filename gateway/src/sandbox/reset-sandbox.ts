import { IDENTITY_HEADER, type Identity } from '@keygate/identity';
import { GatewayError } from '../errors.ts';
import { newId, newRequestId } from '../keys/token.ts';
import type { ActivityEntry, Actor } from '../model/model.ts';
import type { RouteTable } from '../routes/route-table.ts';
import type { KeyStore } from '../store/store.ts';

/** What one upstream answered to its reset. */
export interface UpstreamReset {
  upstream: string;
  /** The upstream's own account of what it did (commerce: the seed's row counts). */
  result: unknown;
}

export interface SandboxResetDeps {
  table: RouteTable;
  /** Signs the administrator's identity for an upstream's audience (the gateway's own signing key). */
  sign(identity: Identity, audience: string): Promise<string>;
  store: KeyStore;
  /** Epoch ms. */
  clock: () => number;
  fetch?: typeof fetch;
}

/** Who resets, for the identity the upstream checks and for the activity log. */
export interface ResetBy {
  actor: Actor;
  sourceIp: string | null;
}

/**
 * Resets the test environment of every upstream whose route table entry names a `sandboxReset`
 * path, then appends a `sandbox.reset` activity entry naming who did it.
 *
 * The gateway knows nothing about what an upstream's test data is: it POSTs to the path the route
 * table gives, on the upstream's test URL, with an identity assertion it signs itself, as for any
 * proxied call, but naming the administrator (`adm_…`, or `cli:<user>`) instead of an API key and
 * holding no scope. The upstream decides (commerce accepts only such callers, and only in its test
 * environment). Nothing is reset through the data plane: the route table gives keys no route there.
 * Keys, usage and API logs live in the gateway's store and are not touched.
 */
export async function resetSandbox(deps: SandboxResetDeps, by: ResetBy): Promise<UpstreamReset[]> {
  const send = deps.fetch ?? fetch;
  const targets = Object.entries(deps.table.upstreams).flatMap(([name, upstream]) =>
    upstream.sandboxReset !== undefined && upstream.test !== undefined
      ? [{ name, audience: upstream.audience, url: new URL(upstream.sandboxReset, upstream.test) }]
      : [],
  );
  if (targets.length === 0) {
    throw new GatewayError(
      'ROUTE_NOT_FOUND',
      'No upstream in the route table has a sandboxReset path and a test URL.',
    );
  }
  const results: UpstreamReset[] = [];
  for (const target of targets) {
    const requestId = newRequestId(deps.clock());
    const identity: Identity = {
      keyId: by.actor.id,
      environment: 'test',
      scopes: [],
      secretId: 'none',
      method: 'POST',
      path: target.url.pathname,
      requestId,
    };
    const assertion = await deps.sign(identity, target.audience);
    let response: Response;
    try {
      response = await send(target.url, {
        method: 'POST',
        headers: { [IDENTITY_HEADER]: assertion, 'x-request-id': requestId },
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw Object.assign(
        new GatewayError(
          'UPSTREAM_UNAVAILABLE',
          `The ${target.name} service could not be reached to reset its test data; nothing was reset there.`,
          { upstream: target.name },
        ),
        { cause: error },
      );
    }
    const body = await response.text();
    if (!response.ok) {
      throw new GatewayError(
        'UPSTREAM_UNAVAILABLE',
        `The ${target.name} service refused the reset with ${response.status}: ${body.slice(0, 300)}`,
        { upstream: target.name },
      );
    }
    results.push({ upstream: target.name, result: body ? JSON.parse(body) : null });
  }
  const entry: ActivityEntry = {
    id: newId('act'),
    keyId: null,
    environment: 'test',
    action: 'sandbox.reset',
    actor: by.actor,
    at: new Date(deps.clock()).toISOString(),
    sourceIp: by.sourceIp,
    before: null,
    after: null,
    details: { upstreams: results.map((reset) => reset.upstream) },
  };
  await deps.store.appendActivity(entry);
  return results;
}
