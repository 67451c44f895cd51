import assert from 'node:assert/strict';
import { freePort, runNode, type Service, startService, tempDir } from '../support/processes.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';

/**
 * kill -9 of a gateway in the middle of key changes (create, scope change, rotation, revocation
 * through the key-management API, several at once), on SQLite and on Redis. After a restart on the
 * same store: every change the gateway acknowledged is there, and no key is half-written (each
 * key's version equals its activity entries, each has a secret, and its newest acknowledged
 * secret still authenticates unless the key was revoked).
 */

interface Acknowledged {
  id: string;
  /** The newest secret the API handed out for the key. */
  secret: string;
  scopesChanged: boolean;
  rotated: boolean;
  revoked: boolean;
}

interface PublicKeyView {
  id: string;
  status: string;
  scopes: string[];
  version: number;
  rotation: { secrets: Array<{ id: string }> };
}

const WORKERS = 6;

describe('kill -9 during key changes', () => {
  for (const backend of ['sqlite', 'redis'] as const) {
    describe(`on ${backend}`, () => {
      let redis: TestRedis | undefined;
      let gateway: Service | undefined;
      const dir = tempDir();
      after(async () => {
        await gateway?.stop();
        await redis?.stop();
        dir.remove();
      });

      it('loses no acknowledged change and leaves no key half-written', async () => {
        if (backend === 'redis') redis = await startRedis();
        const port = await freePort();
        const env: Record<string, string> = {
          KEYGATE_DATA_DIR: dir.path,
          GATEWAY_PORT: String(port),
          KEYGATE_DEFAULT_RATE_LIMIT: '100000',
          // No upstream is running: a proxied call answers 502 once its key passed, 401 if not.
          KEYGATE_UPSTREAM_LIVE: 'http://127.0.0.1:9',
          ...(redis
            ? {
                REDIS_URL: redis.url,
                KEYGATE_REDIS_PREFIX: redis.keyPrefix,
                KEYGATE_SECRET_TAG_KEY: Buffer.alloc(32, 3).toString('base64url'),
              }
            : {}),
        };
        const start = () => startService({ name: 'gateway', script: 'gateway/src/main.ts', port, env });
        gateway = await start();
        const created = await runNode(
          'gateway/src/cli.ts',
          [
            'keys',
            'create',
            '--name',
            'admin',
            '--env',
            'live',
            '--scopes',
            'auth:rw,article:r,order:rw',
            '--json',
          ],
          env,
        );
        assert.equal(created.code, 0, created.stderr);
        const admin = JSON.parse(created.stdout) as { id: string; secret: string };
        const base = `http://127.0.0.1:${port}/v2/auth/keys`;
        const call = (path: string, init: RequestInit = {}, secret = admin.secret) =>
          fetch(`${base}${path}`, {
            ...init,
            headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
          });

        const acknowledged: Acknowledged[] = [];
        let killed = false;
        const worker = async () => {
          while (!killed) {
            try {
              const res = await call('', {
                method: 'POST',
                body: JSON.stringify({
                  name: 'churn',
                  environment: 'live',
                  scopes: ['article:r', 'order:rw'],
                }),
              });
              if (res.status !== 201) throw new Error(`create answered ${res.status}`);
              const key = (await res.json()) as { id: string; secret: string };
              const ack: Acknowledged = { ...key, scopesChanged: false, rotated: false, revoked: false };
              acknowledged.push(ack);
              const scoped = await call(`/${key.id}/scopes`, {
                method: 'POST',
                body: '{"scopes":["article:r"]}',
              });
              if (scoped.status !== 200) throw new Error(`scopes answered ${scoped.status}`);
              ack.scopesChanged = true;
              const rotated = await call(`/${key.id}:rotate`, { method: 'POST', body: '{"overlapDays":1}' });
              if (rotated.status !== 200) throw new Error(`rotate answered ${rotated.status}`);
              ack.secret = ((await rotated.json()) as { secret: string }).secret;
              ack.rotated = true;
              const revoked = await call(`/${key.id}`, { method: 'DELETE' });
              if (revoked.status !== 200) throw new Error(`revoke answered ${revoked.status}`);
              ack.revoked = true;
            } catch (error) {
              if (killed) return;
              throw error;
            }
          }
        };
        const workers = Array.from({ length: WORKERS }, worker);
        // Kill once changes are flowing: after some keys went through their whole life, mid-stream.
        const deadline = Date.now() + 30_000;
        while (acknowledged.filter((ack) => ack.revoked).length < WORKERS && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, 50 + Math.floor(Math.random() * 150)));
        killed = true;
        gateway.child.kill('SIGKILL');
        await gateway.exited;
        await Promise.all(workers);
        assert.ok(acknowledged.length > WORKERS, `changes were flowing (${acknowledged.length} keys)`);

        gateway = await start();
        const listed = (await (await call('')).json()) as { items: PublicKeyView[] };
        const byId = new Map(listed.items.map((key) => [key.id, key]));
        for (const ack of acknowledged) {
          const key = byId.get(ack.id);
          assert.ok(key, `acknowledged key ${ack.id} is there`);
          if (ack.scopesChanged) assert.deepEqual(key.scopes, ['article:r'], `scopes of ${ack.id}`);
          if (ack.rotated) assert.ok(key.rotation.secrets.length >= 2, `rotation of ${ack.id} kept`);
          if (ack.revoked) assert.equal(key.status, 'revoked', `revocation of ${ack.id} kept`);
        }
        for (const key of listed.items) {
          assert.ok(key.rotation.secrets.length >= 1, `${key.id} has a secret`);
          const activity = (await (await call(`/${key.id}/activity?limit=100`)).json()) as {
            items: unknown[];
          };
          assert.equal(activity.items.length, key.version, `${key.id}: one activity entry per version`);
        }
        for (const ack of acknowledged.filter((a) => byId.get(a.id)?.status === 'active')) {
          const res = await fetch(`http://127.0.0.1:${port}/v2/channels`, {
            headers: { Authorization: `Bearer ${ack.secret}` },
          });
          await res.arrayBuffer();
          assert.notEqual(res.status, 401, `the newest acknowledged secret of ${ack.id} authenticates`);
        }
      });
    });
  }
});
