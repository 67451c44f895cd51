import assert from 'node:assert/strict';
import { createMetrics } from '../../../src/ops/metrics.ts';

describe('countRequest (keygate_requests_total)', () => {
  it('counts each request in its own series, however they interleave, across scrapes', async () => {
    const metrics = createMetrics();
    const count = (text: string, rule: string, environment: string, status: number) =>
      Number(
        text.match(
          new RegExp(
            `keygate_requests_total\\{rule="${rule}",environment="${environment}",status="${status}"\\} (\\d+)`,
          ),
        )?.[1] ?? 0,
      );
    const calls: Array<[string, string, number]> = [
      ['GET /a', 'live', 200],
      ['GET /a', 'live', 200],
      ['GET /a', 'test', 200],
      ['GET /a', 'live', 404],
      ['GET /b', 'live', 200],
      ['GET /a', 'live', 200],
    ];
    for (const [rule, environment, status] of calls) metrics.countRequest(rule, environment, status);
    const first = await metrics.registry.metrics();
    assert.deepEqual(
      [
        count(first, 'GET /a', 'live', 200),
        count(first, 'GET /a', 'test', 200),
        count(first, 'GET /a', 'live', 404),
        count(first, 'GET /b', 'live', 200),
      ],
      [3, 1, 1, 1],
    );
    metrics.countRequest('GET /a', 'live', 200);
    metrics.countRequest('GET /b', 'live', 200);
    const second = await metrics.registry.metrics();
    assert.equal(count(second, 'GET /a', 'live', 200), 4, 'a later request adds to the same series');
    assert.equal(count(second, 'GET /b', 'live', 200), 2);
  });
});
