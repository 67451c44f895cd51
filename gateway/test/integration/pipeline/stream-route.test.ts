import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestGateway, type TestGateway } from '../../support/gateway.ts';
import { seedKey } from '../../support/keys.ts';

const STREAM = '/v2/webhooks/events:stream';

/** An upstream whose stream route answers at once, then stays silent `silenceMs` before each event. */
async function startSseUpstream(silenceMs: number) {
  const open: ServerResponse[] = [];
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(': open\n\n');
    open.push(res);
    let n = 0;
    const timer = setInterval(
      () => res.write(`id: evt_${++n}\nevent: order.created\ndata: {}\n\n`),
      silenceMs,
    );
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    open,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Reads a stream's text until `until` matches it or the stream ends; returns what came and how it ended. */
async function readUntil(res: Response, until: RegExp): Promise<{ text: string; ended: boolean }> {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return { text, ended: true };
      text += value;
      if (until.test(text)) {
        await reader.cancel();
        return { text, ended: false };
      }
    }
  } catch {
    return { text, ended: true };
  }
}

describe('key pipeline: a stream route (server-sent events)', () => {
  let gw: TestGateway;
  let upstream: Awaited<ReturnType<typeof startSseUpstream>>;
  let server: Server;
  let base: string;

  beforeEach(async () => {
    upstream = await startSseUpstream(400);
    // The idle timeout is far below the upstream's silence between events.
    gw = await startTestGateway({
      upstreamUrls: { test: upstream.url },
      env: { KEYGATE_UPSTREAM_TIMEOUT_MS: '150' },
    });
    server = gw.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await upstream.close();
    await gw.stop();
  });

  const open = (token: string) =>
    fetch(`${base}${STREAM}`, { headers: { Authorization: `Bearer ${token}` } });

  it('applies no upstream idle timeout to it, and counts it as one call', async () => {
    const { token } = await seedKey(gw.store, gw.hasher, {
      environment: 'test',
      scopes: ['webhook:r'],
      perMinute: 2,
    });
    const res = await open(token);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('ratelimit') ?? '', /^"per-key";r=1;t=\d+$/);
    const { text, ended } = await readUntil(res, /id: evt_3/);
    assert.equal(ended, false, 'the stream outlived three silences of 400 ms with a 150 ms idle timeout');
    assert.match(text, /id: evt_1\nevent: order\.created/);
    // One call of two spent by the stream, however long it ran: one more passes, the next is refused.
    assert.equal((await open(token)).status, 200);
    assert.equal((await open(token)).status, 429);
  });

  it('is cut once its key is revoked', async () => {
    const { key, token } = await seedKey(gw.store, gw.hasher, { environment: 'test', scopes: ['webhook:r'] });
    const res = await open(token);
    assert.equal(res.status, 200);
    const reading = readUntil(res, /(?!)/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stored = gw.store.keys.get(key.id)!;
    gw.store.keys.set(key.id, {
      ...stored,
      status: 'revoked',
      revokedAt: new Date().toISOString(),
      version: stored.version + 1,
    });
    gw.events.publish(key.id);
    const { ended } = await reading;
    assert.equal(ended, true, 'the stream ended');
    const again = await open(token);
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { code: string }).code, 'KEY_REVOKED');
  });
});
