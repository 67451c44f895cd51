import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CommandResult, runCommand } from '../support/packages.ts';
import { freePort, ROOT, tempDir } from '../support/processes.ts';
import { json, type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

const PACKAGE = resolve(ROOT, 'packages/client-php');
const DOC = resolve(ROOT, 'docs/client-php.md');

/** Runs a command to completion; `output` is stdout and stderr interleaved, for failure messages. */
function run(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
): Promise<CommandResult> {
  // A command that cannot start (php missing) fails its test with the reason, like a non-zero exit.
  return runCommand(command, args, { cwd, env }).catch((error: unknown) => ({
    code: -1,
    output: String(error),
  }));
}

/** The ```php block of the doc that follows `<!-- php-example: name -->`. */
function docExample(name: string): string {
  const doc = readFileSync(DOC, 'utf8');
  const match = new RegExp(`<!-- php-example: ${name} -->\\n\`\`\`php\\n([\\s\\S]*?)\\n\`\`\``).exec(doc);
  assert.ok(match?.[1], `docs/client-php.md has no php-example "${name}"`);
  return match[1];
}

describe('the PHP client (packages/client-php) against the real gateway and commerce', function () {
  this.timeout(240_000);
  let system: System;
  let env: Record<string, string>;
  let adminKey: string;
  const project = tempDir('keygate-php-');

  before(async () => {
    // A missing PHP fails here (never a skip): the PHP client is tested against the running system.
    for (const [tool, args] of [
      ['php', ['--version']],
      ['phpunit', ['--version']],
    ] as const) {
      const { code, output } = await run(tool, [...args]);
      assert.equal(
        code,
        0,
        `${tool} is required for the PHP client's tests (Debian: php-cli, phpunit): ${output}`,
      );
    }
    system = await startSystem({
      commerceEnv: { KEYGATE_WEBHOOKS_ALLOW_PRIVATE: 'true', COMMERCE_WEBHOOK_POLL_MS: '100' },
    });
    const all = ['auth:rw', 'article:rw', 'order:rw', 'stock:rw', 'customer:rw', 'pricing:rw', 'webhook:rw'];
    adminKey = (await system.createKey({ name: 'php-ops', env: 'live', scopes: all })).secret;
    // One call a minute, spent now: the gateway's 429 then asks for the rest of this window, which
    // RateLimitTest (last in the PHP suite) waits out within the client's 60 s budget.
    const limited = await system.createKey({
      name: 'php-limited',
      env: 'live',
      scopes: ['article:r'],
      extra: ['--rate-limit', '1'],
    });
    assert.equal((await system.call(limited.secret, '/v2/channels')).status, 200);
    env = {
      KEYGATE_BASE_URL: system.gateway.url,
      KEYGATE_ADMIN_KEY: adminKey,
      KEYGATE_LIMITED_KEY: limited.secret,
    };
    // What `composer require keygate/client` gives a project, from Debian's packages and this checkout.
    mkdirSync(join(project.path, 'vendor'));
    writeFileSync(
      join(project.path, 'vendor/autoload.php'),
      `<?php\nrequire ${JSON.stringify(join(PACKAGE, 'tests/bootstrap.php'))};\n`,
    );
  });

  after(async () => {
    await system?.stop();
    project.remove();
  });

  describe('docs/client-php.md', () => {
    it('runs the client example: catalogue, cart and checkout, a refused call', async () => {
      const shop = await system.createKey({
        name: 'php-doc',
        env: 'live',
        scopes: ['article:r', 'order:rw'],
      });
      writeFileSync(join(project.path, 'example.php'), docExample('client'));
      const { code, output } = await run(
        'php',
        ['example.php'],
        { ...env, KEYGATE_API_KEY: shop.secret },
        project.path,
      );
      assert.equal(code, 0, output);
      assert.match(output, /^KG-00003 .* \d+ EUR \(agreement\)$/m, output);
      assert.match(output, /^order ord_\S+ placed: \d+ EUR$/m, output);
      assert.match(output, /^refused: 409 \w+/m, output);
    });

    it('runs the webhook receiver example, which accepts a real delivery and refuses a forged one', async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}/webhooks/keygate`;
      const created = await system.call(adminKey, '/v2/webhooks/endpoints', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      assert.equal(created.status, 201);
      const endpoint = await json<{ id: string; secret: string }>(created);
      writeFileSync(join(project.path, 'receiver.php'), docExample('webhook-receiver'));
      const receiver: ChildProcess = spawn('php', ['-S', `127.0.0.1:${port}`, 'receiver.php'], {
        cwd: project.path,
        env: { ...process.env, KEYGATE_WEBHOOK_SECRET: endpoint.secret },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let log = '';
      receiver.stderr?.on('data', (chunk) => {
        log += chunk;
      });
      try {
        // Any answer means php -S is listening (a GET has no signature, so the example answers 400).
        await waitUntil('php -S listens', async () => (await fetch(url)).status > 0, {
          timeoutMs: 10_000,
          retryErrors: true,
        });
        const forged = await fetch(url, {
          method: 'POST',
          headers: {
            'webhook-id': 'msg_forged',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,AAAA',
          },
          body: '{"type":"order.created"}',
        });
        assert.equal(forged.status, 400, log);
        const sent = await system.call(adminKey, `/v2/webhooks/endpoints/${endpoint.id}:test`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        });
        assert.equal(sent.status, 202);
        const delivery = await json<{ id: string }>(sent);
        await waitUntil(
          'the receiver accepted the delivery',
          async () => {
            const page = await json<{ data: Array<{ id: string; status: string }> }>(
              await system.call(adminKey, `/v2/webhooks/endpoints/${endpoint.id}/deliveries`),
            );
            return page.data.some((d) => d.id === delivery.id && d.status === 'succeeded');
          },
          20_000,
        );
        assert.match(log, /keygate event webhook\.test msg_/, log);
      } finally {
        receiver.kill();
      }
    });
  });

  // After the examples, so the limited key's window has less left to wait out.
  describe('packages/client-php/tests/Integration', () => {
    it('passes: keys, catalogue, GraphQL, checkout, customers, prices, webhooks, plans and quotas, a real 429', async () => {
      const { code, output } = await run(
        'phpunit',
        ['-c', join(PACKAGE, 'phpunit.xml'), '--testsuite', 'integration'],
        env,
      );
      assert.equal(code, 0, output);
      const summary = /OK \(\d+ tests, \d+ assertions\)/.exec(output);
      assert.ok(summary, output);
      console.log(`      phpunit: ${summary[0]}`);
    });
  });
});
