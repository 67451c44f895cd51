import assert from 'node:assert/strict';
import { ApiProblemError, attempt, call } from '../src/lib/api.ts';

const problem = (status: number, extra: Record<string, unknown> = {}) => ({
  type: 'about:blank',
  title: 'x',
  status,
  code: status === 429 ? 'RATE_LIMITED' : 'PRODUCT_NOT_FOUND',
  detail: `detail ${status}`,
  ...extra,
});

/** A scripted sequence of API answers, counting the sends. */
function answers(...responses: Array<{ status: number; headers?: Record<string, string> }>) {
  let sent = 0;
  const send = async () => {
    const next = responses[Math.min(sent, responses.length - 1)] ?? { status: 200 };
    sent++;
    const response = new Response(null, { status: next.status, headers: next.headers });
    return next.status < 400 ? { data: { ok: sent }, response } : { error: problem(next.status), response };
  };
  return { send, sent: () => sent };
}

describe('call()', () => {
  const waits: number[] = [];
  const wait = async (ms: number) => {
    waits.push(ms);
  };
  beforeEach(() => {
    waits.length = 0;
  });

  describe('on a 429 with a short Retry-After', () => {
    it('waits Retry-After once and returns the second answer', async () => {
      const api = answers({ status: 429, headers: { 'Retry-After': '2' } }, { status: 200 });
      assert.deepEqual(await call(api.send, wait), { ok: 2 });
      assert.deepEqual(waits, [2000]);
      assert.equal(api.sent(), 2);
    });
    it('throws a busy ApiProblemError when the second answer is a 429 too', async () => {
      const api = answers({ status: 429, headers: { 'Retry-After': '1' } });
      const outcome = await attempt(() => call(api.send, wait));
      assert.equal(outcome.ok, false);
      assert.equal(!outcome.ok && outcome.busy, true);
      assert.equal(api.sent(), 2);
    });
  });
  describe('on a 429 with a Retry-After beyond 10 s', () => {
    it('does not wait and reports busy at once', async () => {
      const api = answers({ status: 429, headers: { 'Retry-After': '60' } });
      await assert.rejects(
        call(api.send, wait),
        (error: unknown) => error instanceof ApiProblemError && error.isBusy,
      );
      assert.deepEqual(waits, []);
      assert.equal(api.sent(), 1);
    });
  });
  describe('on another problem', () => {
    it('throws its problem, detail included, without retrying', async () => {
      const api = answers({ status: 404 });
      const outcome = await attempt(() => call(api.send, wait));
      assert.deepEqual(outcome, { ok: false, problem: problem(404), busy: false });
      assert.equal(api.sent(), 1);
    });
  });
  describe('when the API cannot be reached', () => {
    it('throws a 503 API_UNREACHABLE problem naming the cause', async () => {
      const outcome = await attempt(() =>
        call(async () => {
          throw new TypeError('fetch failed');
        }, wait),
      );
      assert.equal(!outcome.ok && outcome.problem.code, 'API_UNREACHABLE');
      assert.match(String(!outcome.ok && outcome.problem.detail), /fetch failed/);
    });
  });
});
