import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/app.ts';
import { ALL_SCOPES } from '../support/identity.ts';

const STREAM = '/v2/webhooks/events:stream';

interface StreamedEvent {
  id: string;
  event: string;
  data: { id: string; type: string };
}

/** Reads server-sent events from a response until `count` arrived, then cancels the stream. */
async function readEvents(res: Response, count: number): Promise<StreamedEvent[]> {
  const events: StreamedEvent[] = [];
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields = Object.fromEntries(
        block
          .split('\n')
          .filter((line) => line && !line.startsWith(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      if (fields.data)
        events.push({ id: fields.id ?? '', event: fields.event ?? '', data: JSON.parse(fields.data) });
      end = buffer.indexOf('\n\n');
    }
  }
  await reader.cancel();
  return events;
}

describe('GET /v2/webhooks/events:stream', () => {
  let t: TestApp;
  let server: Server;
  let base: string;

  async function start(environment: 'test' | 'live') {
    t = await createTestApp({ environment });
    server = t.app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    t.close();
  });

  const open = async (headers: Record<string, string> = {}, scopes = ALL_SCOPES) =>
    fetch(`${base}${STREAM}`, {
      headers: {
        'X-Keygate-Identity': await t.identity.assert({
          environment: t.environment,
          method: 'GET',
          path: STREAM,
          scopes,
        }),
        ...headers,
      },
    });
  const trigger = async (type: string) =>
    (await t.post('/v2/webhooks/events:trigger', { type })).body.eventId as string;

  it('streams the events recorded after it opened, as id, event type and envelope', async () => {
    await start('test');
    await trigger('customer.created');
    const res = await open();
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const reading = readEvents(res, 1);
    const id = await trigger('order.created');
    const [event] = await reading;
    assert.equal(event?.id, id);
    assert.equal(event?.event, 'order.created');
    assert.equal(event?.data.id, id);
  });

  it('resumes after Last-Event-ID with every later event, none twice', async () => {
    await start('test');
    const first = await trigger('customer.created');
    await trigger('customer.updated');
    await trigger('stock.updated');
    // customer.updated records a customer.created first (a new sandbox customer): three events after `first`.
    const recorded = (
      t.db.sqlite.prepare('SELECT id FROM webhook_events ORDER BY rowid').all() as Array<{ id: string }>
    ).map((row) => row.id);
    assert.equal(recorded.length, 4);
    const events = await readEvents(await open({ 'Last-Event-ID': first }), 3);
    assert.deepEqual(
      events.map((event) => event.id),
      recorded.slice(1),
    );
  });

  it('needs webhook:r', async () => {
    await start('test');
    const res = await open({}, ['order:r']);
    assert.equal(res.status, 403);
  });

  it('answers 403 SANDBOX_ONLY in the live environment', async () => {
    await start('live');
    const res = await open();
    assert.equal(res.status, 403);
    assert.equal(((await res.json()) as { code: string }).code, 'SANDBOX_ONLY');
  });
});
