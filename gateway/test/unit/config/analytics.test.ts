import assert from 'node:assert/strict';
import { loadConfig } from '../../../src/config.ts';

describe('loadConfig: analytics retention and KEYGATE_ANALYTICS', () => {
  it('keeps minutes 48 hours, hours 90 days and days 400 days by default, counting on', () => {
    const config = loadConfig({});
    assert.deepEqual(config.analyticsRetention, {
      minute: 48 * 3_600_000,
      hour: 90 * 86_400_000,
      day: 400 * 86_400_000,
    });
    assert.equal(config.analytics, 'on');
  });

  it('reads each retention from its variable', () => {
    const config = loadConfig({
      KEYGATE_ANALYTICS_MINUTE_RETENTION_HOURS: '6',
      KEYGATE_ANALYTICS_HOUR_RETENTION_DAYS: '14',
      KEYGATE_ANALYTICS_DAY_RETENTION_DAYS: '30',
    });
    assert.deepEqual(config.analyticsRetention, {
      minute: 6 * 3_600_000,
      hour: 14 * 86_400_000,
      day: 30 * 86_400_000,
    });
  });

  it('refuses a retention that is not a positive whole number, naming the variable', () => {
    assert.throws(
      () =>
        loadConfig({
          KEYGATE_ANALYTICS_MINUTE_RETENTION_HOURS: '0',
          KEYGATE_ANALYTICS_DAY_RETENTION_DAYS: 'a year',
        }),
      (error: unknown) =>
        error instanceof Error &&
        error.message.includes('KEYGATE_ANALYTICS_MINUTE_RETENTION_HOURS') &&
        error.message.includes('KEYGATE_ANALYTICS_DAY_RETENTION_DAYS'),
    );
  });

  it('refuses KEYGATE_ANALYTICS=off outside bench mode, and accepts it in bench mode', () => {
    assert.throws(
      () => loadConfig({ KEYGATE_ANALYTICS: 'off' }),
      /KEYGATE_ANALYTICS: off counts no call outcomes.*KEYGATE_BENCH_MODE=1/,
    );
    assert.equal(loadConfig({ KEYGATE_ANALYTICS: 'off', KEYGATE_BENCH_MODE: '1' }).analytics, 'off');
  });
});
