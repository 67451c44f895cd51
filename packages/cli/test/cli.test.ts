import assert from 'node:assert/strict';
import { assertTestKey, matchesStatus, readServerSentEvents, runCli } from '../src/index.ts';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function run(argv: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    env,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

describe('readServerSentEvents', () => {
  it('yields id, event and data, across chunk boundaries, skipping comments and the retry field', async () => {
    const body = streamOf(
      'retry: 1000\n\n: keep-alive\n\nid: evt_1\nevent: order.created\nda',
      'ta: {"a":1}\n\nid: evt_2\r\nevent: stock.updated\r\ndata: line one\r\ndata: line two\r\n\r\n',
    );
    const events = [];
    for await (const event of readServerSentEvents(body)) events.push(event);
    assert.deepEqual(events, [
      { id: 'evt_1', event: 'order.created', data: '{"a":1}' },
      { id: 'evt_2', event: 'stock.updated', data: 'line one\nline two' },
    ]);
  });
});

describe('matchesStatus', () => {
  it('matches a class (4xx) or one status (429), everything without a filter', () => {
    assert.deepEqual(
      [429, 404, 500, 200].map((status) => matchesStatus(status, '4xx')),
      [true, true, false, false],
    );
    assert.deepEqual(
      [429, 404].map((status) => matchesStatus(status, '429')),
      [true, false],
    );
    assert.equal(matchesStatus(200, null), true);
  });
});

describe('keygate-cli', () => {
  it('refuses a live key and a missing key, naming what to do', async () => {
    assert.throws(() => assertTestKey('kg_live_abc'), /test keys only/);
    const missing = await run(['trigger', 'order.created']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /KEYGATE_API_KEY/);
    const live = await run(['trigger', 'order.created'], { KEYGATE_API_KEY: 'kg_live_abc' });
    assert.equal(live.code, 2);
    assert.match(live.stderr, /never a live key/);
  });

  it('explains its usage mistakes on one line with exit code 2', async () => {
    const key = { KEYGATE_API_KEY: 'kg_test_abc' };
    assert.match((await run(['listen'], key)).stderr, /--forward-to/);
    assert.match((await run(['logs', 'tail', '--status', 'bad'], key)).stderr, /--status must be/);
    assert.match((await run(['frobnicate'], key)).stderr, /unknown command "frobnicate"/);
    assert.match((await run(['trigger', '--nope'], key)).stderr, /Unknown option/);
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /listen --forward-to URL/);
  });

  it('reports an unreachable gateway for trigger as one line', async () => {
    const res = await run(['trigger', 'order.created', '--base-url', 'http://127.0.0.1:1'], {
      KEYGATE_API_KEY: 'kg_test_abc',
    });
    assert.equal(res.code, 2);
    assert.match(res.stderr, /^keygate-cli: /);
    assert.equal(res.stderr.split('\n').length, 2);
  });
});
