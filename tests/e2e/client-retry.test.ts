import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { createKeygateClient, unwrap } from '@keygate/client';
import { type DroppingProxy, type ProxiedCall, startDroppingProxy } from '../support/dropping-proxy.ts';
import { runCommand } from '../support/packages.ts';
import { ROOT } from '../support/processes.ts';
import { type System, startSystem } from '../support/system.ts';

const CHECKOUT = /^\/v2\/carts\/[^/]+:checkout$/;

/** The proxy's record of the checkouts of one cart. */
function checkoutsOf(proxy: DroppingProxy, cartId: string): ProxiedCall[] {
  return proxy.calls.filter((call) => call.method === 'POST' && call.path === `/v2/carts/${cartId}:checkout`);
}

/**
 * Asserts what the issue asks: the first checkout reached commerce and placed the order, its
 * answer was lost, the client sent it again under the same Idempotency-Key, and the service
 * answered the repeat with that same order instead of placing (or refusing) a second.
 */
function assertOneOrder(proxy: DroppingProxy, cartId: string, orderId: string) {
  const [first, again, ...more] = checkoutsOf(proxy, cartId);
  assert.ok(first && again, `two checkouts reached the gateway: ${JSON.stringify(proxy.calls)}`);
  assert.deepEqual(more, [], 'one retry was enough');
  assert.equal(first.dropped, true);
  assert.equal(first.status, 201, first.body);
  assert.match(
    first.idempotencyKey ?? '',
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.equal(again.idempotencyKey, first.idempotencyKey, 'the retry carries the same key');
  const placed = JSON.parse(first.body) as { id: string };
  assert.equal(again.status, 201, again.body);
  assert.equal(again.replayed, true, 'the service replayed the first answer');
  assert.equal((JSON.parse(again.body) as { id: string }).id, placed.id);
  assert.equal(orderId, placed.id, 'the caller got the order the first checkout placed');
}

describe('a checkout whose answer is lost is retried into exactly one order', function () {
  this.timeout(120_000);
  let system: System;
  let proxy: DroppingProxy;
  let secret: string;

  before(async () => {
    system = await startSystem();
    ({ secret } = await system.createKey({ name: 'shop', env: 'live', scopes: ['article:r', 'order:rw'] }));
    // Loses the answer to the first checkout of each cart, after commerce has placed the order.
    proxy = await startDroppingProxy(
      system.gateway.url,
      (call, earlier) => CHECKOUT.test(call.path) && !earlier.some((seen) => seen.path === call.path),
    );
  });

  after(async () => {
    await proxy?.close();
    await system?.stop();
  });

  it('TypeScript: the client retries under its key and returns the one order', async () => {
    const delays: number[] = [];
    const client = createKeygateClient({
      baseUrl: proxy.url,
      apiKey: secret,
      sleep: async (ms) => void delays.push(ms),
    });
    const cart = await unwrap(
      client.POST('/v2/carts', { body: { channel: 'WEB_DE', customerId: 'cus_0003' } }),
    );
    await unwrap(
      client.POST('/v2/carts/{id}/items', {
        params: { path: { id: cart.id } },
        body: { sku: 'KG-00003', qty: 1 },
      }),
    );
    const order = await unwrap(client.POST('/v2/carts/{id}:checkout', { params: { path: { id: cart.id } } }));
    assert.equal(order.cartId, cart.id);
    assertOneOrder(proxy, cart.id, order.id);
    assert.deepEqual(delays, [1000], 'one backoff after the lost connection');
    const stored = await unwrap(client.GET('/v2/orders/{id}', { params: { path: { id: order.id } } }));
    assert.equal(stored.cartId, cart.id);
  });

  it('PHP: the client retries under its key and returns the one order', async () => {
    const { code, output } = await runCommand('php', ['tests/fixtures/php/checkout.php'], {
      cwd: ROOT,
      env: {
        KEYGATE_PHP_BOOTSTRAP: resolve(ROOT, 'packages/client-php/tests/bootstrap.php'),
        KEYGATE_API_KEY: secret,
        KEYGATE_BASE_URL: proxy.url,
      },
    });
    assert.equal(code, 0, output);
    const result = JSON.parse(output) as { order: string; cart: string; waits: number[] };
    assertOneOrder(proxy, result.cart, result.order);
    assert.deepEqual(result.waits, [1], 'one backoff after the lost connection');
  });
});
