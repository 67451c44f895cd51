import assert from 'node:assert/strict';
import {
  type AttemptResult,
  applyJitter,
  DEFAULT_RETRY_SCHEDULE_SECONDS,
  decideOutcome,
  parseRetryAfter,
  type RetryPolicy,
} from '../../src/webhooks/retry-policy.ts';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const POLICY: RetryPolicy = {
  scheduleMs: DEFAULT_RETRY_SCHEDULE_SECONDS.map((s) => s * 1000),
  jitterRatio: 0.2,
  disableAfterMs: 5 * 24 * 3_600_000,
  maxRetryAfterMs: 24 * 3_600_000,
};

function result(statusCode: number | null, retryAfter: string | null = null): AttemptResult {
  return {
    statusCode,
    durationMs: 3,
    response: '',
    responseTruncated: false,
    retryAfter,
    error: statusCode ? null : 'ECONNREFUSED',
  };
}

function decide(r: AttemptResult, scheduleStep = 0, failingSince: Date | null = null, random = () => 0.5) {
  return decideOutcome({ result: r, scheduleStep, failingSince, now: NOW, policy: POLICY, random });
}

const after = (ms: number) => new Date(NOW.getTime() + ms);

describe('retry policy', () => {
  describe('the default schedule', () => {
    it('is 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
      assert.deepEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS], [0, 5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
    });
  });

  describe('applyJitter', () => {
    it('stays within ±ratio and covers both ends', () => {
      assert.equal(
        applyJitter(1000, 0.2, () => 0),
        800,
      );
      assert.equal(
        applyJitter(1000, 0.2, () => 0.5),
        1000,
      );
      assert.equal(
        applyJitter(1000, 0.2, () => 0.999999),
        1200,
      );
      assert.equal(
        applyJitter(0, 0.2, () => 0.9),
        0,
      );
      for (let i = 0; i < 200; i++) {
        const d = applyJitter(300_000, 0.2, Math.random);
        assert.ok(d >= 240_000 && d <= 360_000, String(d));
      }
    });
  });

  describe('parseRetryAfter', () => {
    it('reads delta seconds and HTTP dates, ignoring garbage', () => {
      assert.equal(parseRetryAfter('120', NOW), 120_000);
      assert.equal(parseRetryAfter(' 0 ', NOW), 0);
      assert.equal(parseRetryAfter(after(90_000).toUTCString(), NOW), 90_000);
      assert.equal(parseRetryAfter(new Date(NOW.getTime() - 5000).toUTCString(), NOW), 0);
      assert.equal(parseRetryAfter('soon', NOW), null);
      assert.equal(parseRetryAfter('-5', NOW), null);
      assert.equal(parseRetryAfter(null, NOW), null);
    });
  });

  describe('decideOutcome', () => {
    it('2xx succeeds and ends the endpoint’s failure run', () => {
      for (const status of [200, 201, 204, 299]) {
        const outcome = decide(result(status), 3, new Date(0));
        assert.deepEqual([outcome.status, outcome.failingSince, outcome.disable], ['succeeded', null, null]);
      }
    });
    it('a failure schedules the next step with jitter and starts the failure run', () => {
      for (const status of [null, 301, 400, 404, 500, 503]) {
        const outcome = decide(result(status), 1);
        assert.deepEqual(outcome, {
          status: 'pending',
          nextAttemptAt: after(300_000),
          scheduleStep: 2,
          failingSince: NOW,
          disable: null,
        });
      }
      assert.deepEqual(decide(result(500), 1, null, () => 0).nextAttemptAt, after(240_000));
    });
    it('after the last step, the delivery fails', () => {
      const outcome = decide(result(500), 7);
      assert.deepEqual([outcome.status, outcome.nextAttemptAt], ['failed', null]);
    });
    it('410 fails the delivery at once and disables the endpoint as gone', () => {
      const outcome = decide(result(410), 0);
      assert.deepEqual([outcome.status, outcome.disable], ['failed', 'gone']);
    });
    it('Retry-After later than the schedule wins; earlier never brings the attempt forward', () => {
      assert.deepEqual(decide(result(429, '600'), 0).nextAttemptAt, after(600_000));
      assert.deepEqual(decide(result(429, '1'), 1).nextAttemptAt, after(300_000));
      assert.deepEqual(
        decide(result(503, '999999'), 0).nextAttemptAt,
        after(24 * 3_600_000),
        'capped at 24 h',
      );
    });
    it('disables the endpoint once its failure run reaches the failure period', () => {
      const longAgo = new Date(NOW.getTime() - POLICY.disableAfterMs);
      assert.equal(decide(result(500), 2, longAgo).disable, 'failing');
      assert.deepEqual(decide(result(500), 2, longAgo).failingSince, longAgo);
      assert.equal(decide(result(500), 2, new Date(longAgo.getTime() + 1)).disable, null);
    });
  });
});
