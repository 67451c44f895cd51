import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { freePort, ROOT, runNode, tempDir, waitForOk } from '../support/processes.ts';

/**
 * SIGTERM under load loses no log line (#44): every call answered 200 before the gateway stopped
 * is in its API log (the SQLite file) and has its access line on stdout, also when the API-log
 * writer is slow at that moment (another connection holds the file's write lock).
 */

/** Calls admitted before the signal: enough for several of the log writer's batches. */
const ADMITTED_BEFORE_SIGNAL = 1200;
/** Clients calling at once, each on its own keep-alive connection. */
const CLIENTS = 8;

interface Gateway {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
}

async function startGateway(env: Record<string, string>, port: number): Promise<Gateway> {
  const child = spawn(process.execPath, [resolve(ROOT, 'gateway/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const url = `http://127.0.0.1:${port}`;
  await waitForOk(`${url}/readyz`, 30_000, () => {
    if (child.exitCode !== null) throw new Error(`gateway exited early:\n${stdout}${stderr}`);
  });
  return { child, url, stdout: () => stdout, exited };
}

/**
 * Calls until the gateway stops answering (its listener closed, or an answer other than 200 during
 * the shutdown), adding the request id of each call answered 200 to `admitted`.
 */
async function callUntilStopped(
  url: string,
  token: string,
  admitted: string[],
  refusals: string[],
): Promise<void> {
  for (;;) {
    let res: Response;
    try {
      res = await fetch(`${url}/v2/channels`, { headers: { Authorization: `Bearer ${token}` } });
      if (res.status === 200) await res.arrayBuffer();
    } catch {
      return; // the listener is closed: the gateway is shutting down
    }
    const id = res.headers.get('x-request-id');
    if (res.status === 200 && id !== null) admitted.push(id);
    else if (res.status !== 200) {
      refusals.push(`${res.status} ${await res.text().catch(() => '')}`);
      return;
    }
  }
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('SIGTERM under load', () => {
  let upstream: Server;
  let upstreamUrl: string;
  const dirs: Array<{ remove(): void }> = [];
  before(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  });
  after(async () => {
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
    for (const dir of dirs.splice(0)) dir.remove();
  });

  for (const writer of ['a free API-log writer', 'an API-log writer held up by a locked file'] as const) {
    it(`loses no API-log row and no access line, with ${writer}`, async () => {
      const dir = tempDir();
      dirs.push(dir);
      const port = await freePort();
      const env = {
        KEYGATE_DATA_DIR: dir.path,
        GATEWAY_PORT: String(port),
        KEYGATE_UPSTREAM_LIVE: upstreamUrl,
        KEYGATE_UPSTREAM_TEST: upstreamUrl,
        KEYGATE_KEY_MAX_CONCURRENT: '1000',
      };
      const created = await runNode(
        'gateway/src/cli.ts',
        [
          'keys',
          'create',
          '--name',
          'load',
          '--env',
          'live',
          '--scopes',
          'article:r',
          '--rate-limit',
          '100000',
          '--json',
        ],
        env,
      );
      assert.equal(created.code, 0, created.stderr);
      const token = (JSON.parse(created.stdout) as { secret: string }).secret;
      const gateway = await startGateway(env, port);
      const db = new DatabaseSync(join(dir.path, 'gateway.db'));
      let locked = false;
      try {
        const admitted: string[] = [];
        const refusals: string[] = [];
        const clients = Array.from({ length: CLIENTS }, () =>
          callUntilStopped(gateway.url, token, admitted, refusals),
        );
        await until(
          'calls admitted',
          () => admitted.length >= ADMITTED_BEFORE_SIGNAL / 2 || refusals.length > 0,
        );
        assert.deepEqual(refusals, [], 'every call before the signal is answered 200');
        if (writer !== 'a free API-log writer') {
          // The writer's next batches wait for the lock (its busy timeout), as on a slow disk.
          db.exec('BEGIN IMMEDIATE');
          locked = true;
        }
        await until('calls admitted', () => admitted.length >= ADMITTED_BEFORE_SIGNAL);
        gateway.child.kill('SIGTERM');
        await Promise.all(clients);
        if (locked) {
          db.exec('COMMIT');
          locked = false;
        }
        const [code, signal] = await gateway.exited;
        assert.equal(signal, null, gateway.stdout());
        assert.equal(code, 0, gateway.stdout());

        const logged = new Set(
          (db.prepare('SELECT id FROM api_logs').all() as Array<{ id: string }>).map((row) => row.id),
        );
        const missingRows = admitted.filter((id) => !logged.has(id));
        assert.deepEqual(
          missingRows.slice(0, 5),
          [],
          `${missingRows.length} of ${admitted.length} calls have no API-log row`,
        );
        const lines = new Set(
          gateway
            .stdout()
            .split('\n')
            .filter((line) => line.includes('"msg":"request"'))
            .map((line) => (JSON.parse(line) as { requestId: string }).requestId),
        );
        const missingLines = admitted.filter((id) => !lines.has(id));
        assert.deepEqual(
          missingLines.slice(0, 5),
          [],
          `${missingLines.length} of ${admitted.length} calls have no access line`,
        );
        assert.ok(admitted.length >= ADMITTED_BEFORE_SIGNAL);
      } finally {
        if (locked) db.exec('ROLLBACK');
        db.close();
        gateway.child.kill('SIGKILL');
      }
    });
  }
});
