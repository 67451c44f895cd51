import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { type System, startSystem } from '../support/system.ts';
import { tally } from '../support/traffic.ts';

/**
 * One key cannot starve the others (#22, defect 2): one key opens many connections, each a POST
 * announcing a 1000-byte body and then sending one byte a second. Another key's calls must still be
 * answered (200), not wait for a 504. The upstream pool is made small and its timeout short so the
 * starvation, were it possible, would show in seconds rather than 30 s; the assertion is on what the
 * other key gets (answered, not 504/timeout), never on its latency.
 */
const UPSTREAM_CONNECTIONS = 16;
const SLOW_CONNECTIONS = 60;

function slowPost(port: number, token: string): Socket {
  const socket = connect(port, '127.0.0.1', () => {
    socket.write(
      `POST /v2/graphql HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
  });
  const drip = setInterval(() => {
    if (!socket.destroyed) socket.write(' ');
  }, 1000);
  socket.on('close', () => clearInterval(drip));
  socket.on('error', () => {});
  socket.setEncoding('latin1');
  return socket;
}

describe('slow request bodies from one key', () => {
  let system: System;
  const sockets: Socket[] = [];
  before(async () => {
    system = await startSystem({
      gatewayEnv: {
        KEYGATE_UPSTREAM_CONNECTIONS: String(UPSTREAM_CONNECTIONS),
        KEYGATE_UPSTREAM_TIMEOUT_MS: '5000',
        KEYGATE_KEY_MAX_CONCURRENT: '8',
      },
    });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await system.stop();
  });

  it('leave another key’s calls answered, and are cut off or refused themselves', async () => {
    const attacker = await system.createKey({ name: 'slow', env: 'live', scopes: ['article:r'] });
    const other = await system.createKey({ name: 'other', env: 'live', scopes: ['article:r'] });
    const port = Number(new URL(system.gateway.url).port);
    const answers: string[] = [];
    for (let i = 0; i < SLOW_CONNECTIONS; i++) {
      const socket = slowPost(port, attacker.secret);
      socket.on('data', (chunk: string) => answers.push(chunk));
      sockets.push(socket);
    }
    // Let every slow request pass its key check and settle wherever the gateway puts it.
    await new Promise((r) => setTimeout(r, 2000));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await system.call(other.secret, '/v2/channels', { signal: AbortSignal.timeout(20_000) });
      await res.arrayBuffer();
      statuses.push(res.status);
    }
    assert.deepEqual(tally(statuses), { 200: 10 }, 'the other key is answered while the slow bodies drip');
    // The slow key itself: beyond its concurrency cap refused with 429 at once, the rest cut off with
    // 408 once their body is overdue; none reached an upstream (each would have answered 400 there).
    const deadline = Date.now() + 30_000;
    const statusOf = (text: string) => /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
    while (Date.now() < deadline && answers.filter(statusOf).length < SLOW_CONNECTIONS) {
      await new Promise((r) => setTimeout(r, 250));
    }
    const slowStatuses = answers.map(statusOf).filter(Boolean);
    assert.equal(
      slowStatuses.length,
      SLOW_CONNECTIONS,
      `answers: ${JSON.stringify(tally(slowStatuses.map(Number)))}`,
    );
    assert.deepEqual(new Set(slowStatuses), new Set(['429', '408']));
    for (const text of answers.filter(statusOf))
      assert.match(text, /Content-Type: application\/problem\+json/i);
    assert.ok(answers.some((text) => /^HTTP\/1\.1 429/.test(text) && /Retry-After: 1/i.test(text)));
    const alive = await system.call(other.secret, '/v2/channels');
    assert.equal(alive.status, 200);
  });
});
