import assert from 'node:assert/strict';
import { Histogram, Registry } from 'prom-client';
import { createLightHistogram } from '../../../src/ops/light-histogram.ts';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const LABELS = ['upstream', 'environment', 'outcome'];

describe('createLightHistogram', () => {
  it("exposes the same text as prom-client's Histogram for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const light = createLightHistogram({
      name: 'test_duration_seconds',
      help: 'Test durations.',
      labelNames: LABELS,
      buckets: BUCKETS,
      registers: [ours],
    });
    const reference = new Histogram({
      name: 'test_duration_seconds',
      help: 'Test durations.',
      labelNames: LABELS,
      buckets: BUCKETS,
      registers: [theirs],
    });
    const observations: Array<[string[], number]> = [
      [['commerce', 'live', 'response'], 0.0004],
      [['commerce', 'live', 'response'], 0.001],
      [['commerce', 'live', 'response'], 0.05],
      [['commerce', 'live', 'response'], 7],
      [['commerce', 'test', 'timeout'], 30],
      [['other "svc"', 'live', 'unavailable'], 0.1],
    ];
    for (const [values, seconds] of observations) {
      light.observe(values, seconds);
      reference.observe({ upstream: values[0]!, environment: values[1]!, outcome: values[2]! }, seconds);
    }
    assert.equal(await ours.metrics(), await theirs.metrics());
    assert.match(
      await ours.metrics(),
      /test_duration_seconds_bucket\{le="0.001",upstream="commerce",environment="live",outcome="response"\} 2/,
    );
  });

  it('exposes nothing but its help and type before the first observation, and again after a reset', async () => {
    const registry = new Registry();
    const light = createLightHistogram({
      name: 'idle_seconds',
      help: 'Idle.',
      labelNames: ['a'],
      buckets: BUCKETS,
      registers: [registry],
    });
    assert.equal(await registry.metrics(), '# HELP idle_seconds Idle.\n# TYPE idle_seconds histogram\n');
    light.observe(['x'], 1);
    assert.match(await registry.metrics(), /idle_seconds_count\{a="x"\} 1/);
    registry.resetMetrics();
    assert.equal(await registry.metrics(), '# HELP idle_seconds Idle.\n# TYPE idle_seconds histogram\n');
  });
});
