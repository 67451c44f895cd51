import assert from 'node:assert/strict';
import { AnalyticsQuerySchema } from '@keygate/contracts/gateway';
import { resolveRange } from '../../../src/analytics/read-analytics.ts';
import { GatewayError } from '../../../src/errors.ts';

const NOW = Date.parse('2026-11-28T10:30:15.000Z');
const range = (query: Record<string, string>) => {
  const { fromMs, toMs, granularity } = resolveRange(AnalyticsQuerySchema.parse(query), NOW);
  return [new Date(fromMs).toISOString(), new Date(toMs).toISOString(), granularity];
};
const refusal = (query: Record<string, string>) => {
  try {
    range(query);
  } catch (error) {
    assert.ok(error instanceof GatewayError);
    return [error.code, (error.extensions.errors as Array<{ pointer: string }>)[0]?.pointer];
  }
  assert.fail('no refusal');
};

describe('resolveRange: an analytics query as whole buckets', () => {
  it('defaults to the last 24 hours by the hour, the current hour included', () => {
    assert.deepEqual(range({}), ['2026-11-27T11:00:00.000Z', '2026-11-28T11:00:00.000Z', 'hour']);
  });

  it('defaults to 60 minutes by the minute and 30 days by the day', () => {
    assert.deepEqual(range({ granularity: 'minute' }), [
      '2026-11-28T09:31:00.000Z',
      '2026-11-28T10:31:00.000Z',
      'minute',
    ]);
    assert.deepEqual(range({ granularity: 'day' }), [
      '2026-10-30T00:00:00.000Z',
      '2026-11-29T00:00:00.000Z',
      'day',
    ]);
  });

  it('widens from and to to the buckets that hold them, and keeps a to on a boundary', () => {
    assert.deepEqual(range({ from: '2026-11-28T08:59:59Z', to: '2026-11-28T10:00:00Z' }), [
      '2026-11-28T08:00:00.000Z',
      '2026-11-28T10:00:00.000Z',
      'hour',
    ]);
  });

  it('refuses from after to, and more than 2,880 buckets, with 422 naming the field', () => {
    assert.deepEqual(refusal({ from: '2026-11-28T10:00:00Z', to: '2026-11-28T09:00:00Z' }), [
      'VALIDATION_FAILED',
      '/from',
    ]);
    assert.deepEqual(refusal({ granularity: 'minute', from: '2026-11-25T00:00:00Z' }), [
      'VALIDATION_FAILED',
      '/granularity',
    ]);
    assert.deepEqual(
      range({ granularity: 'minute', from: '2026-11-26T10:31:00Z' })[0],
      '2026-11-26T10:31:00.000Z',
    );
  });
});
