import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { answerEveryWay } from '../support/monitoring-traffic.ts';
import { freePort } from '../support/processes.ts';
import {
  DASHBOARD_FILE,
  RULES_FILE,
  type Sample,
  startPrometheus,
  type TestPrometheus,
} from '../support/prometheus.ts';
import { startRedis, type TestRedis } from '../support/redis.ts';
import { type System, startSystem } from '../support/system.ts';
import { waitUntil } from '../support/traffic.ts';

// The Grafana dashboard of deploy/monitoring and the alerting rules, against a real Prometheus
// (Debian's `prometheus`) scraping a real gateway on Redis and both commerce processes: every panel
// query runs as Grafana would run it, after traffic an operator would want to see (admitted calls,
// each kind of refusal, a commerce process gone, a trace collector that is not there).

interface Target {
  expr: string;
  refId: string;
}
interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
}

const dashboard = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as { panels: Panel[] };
const queries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ panel, target })),
);

/**
 * Series this traffic cannot make, by the metric a query reads: each is a counter with labels that
 * prom-client shows only once counted.
 */
const EMPTY_HERE: Record<string, string> = {
  keygate_argon2_verifications_total: 'every secret here carries its keyed tag: argon2 never runs',
  keygate_redis_errors_total: 'Redis stays up',
};

// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's variable syntax, not a template.
const DATASOURCE_VARIABLE = '${datasource}';

/** Grafana's `$__rate_interval` for a 1 s scrape interval (at least four scrapes). */
const asGrafanaRuns = (expr: string) => expr.replaceAll('$__rate_interval', '10s');

/** The metric names an expression reads (PromQL functions and keywords are followed by `(`). */
function metricsOf(expr: string): string[] {
  const names = expr.match(/\b[a-z_][a-z0-9_]*\b(?=\s*[{[)]|\s*$)/g) ?? [];
  return [...new Set(names)].filter((name) => /^(keygate_|webhook_|http_|process_|nodejs_|up$)/.test(name));
}

describe('the Grafana dashboard and the alerting rules, on a real Prometheus scraping keygate', function () {
  this.timeout(240_000);
  let redis: TestRedis;
  let system: System;
  let prometheus: TestPrometheus;
  const hostOf = (url: string) => new URL(url).host;

  before(async () => {
    redis = await startRedis();
    // Nothing listens there: every span export fails and is counted as dropped.
    const noCollector = `http://127.0.0.1:${await freePort()}`;
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: noCollector, OTEL_BSP_SCHEDULE_DELAY: '200' };
    system = await startSystem({
      redisUrl: redis.url,
      redisEnv: { KEYGATE_REDIS_PREFIX: redis.keyPrefix },
      gatewayEnv: tracing,
      commerceEnv: tracing,
    });
    prometheus = await startPrometheus(
      [
        { name: 'keygate-gateway', targets: [hostOf(system.gateway.url)] },
        { name: 'keygate-commerce', targets: [hostOf(system.live.url), hostOf(system.test.url)] },
      ],
      [RULES_FILE],
    );
    const { live, sandbox } = await answerEveryWay(system);
    // Commerce live goes away: live calls now fail at the upstream, as in an outage.
    await system.live.stop();
    for (let i = 0; i < 5; i++) {
      const res = await system.call(live.secret, '/v2/channels');
      await res.arrayBuffer();
      assert.equal(res.status, 502);
    }
    const scrapedTwice = async (expr: string) =>
      (await prometheus.query(`count_over_time((${expr})[1m:1s]) >= 2`)).length > 0;
    const rising = async (expr: string) => (await prometheus.query(`increase(${expr}[1m]) > 0`)).length > 0;
    await waitUntil(
      'Prometheus has scraped the outage and spans being dropped',
      async () => {
        // Each call makes spans the tracer cannot export, so the dropped counters keep rising.
        for (const secret of [live.secret, sandbox.secret])
          await (await system.call(secret, '/v2/channels')).arrayBuffer();
        return (
          (await scrapedTwice('keygate_requests_total{environment="live", status="502"}')) &&
          (await scrapedTwice(`up{job="keygate-commerce", instance="${hostOf(system.live.url)}"} == 0`)) &&
          (await rising('keygate_trace_spans_dropped_total{job="keygate-gateway"}')) &&
          (await rising('keygate_trace_spans_dropped_total{job="keygate-commerce"}'))
        );
      },
      { timeoutMs: 60_000, intervalMs: 500 },
    );
  });

  after(async () => {
    await prometheus?.stop();
    await system?.stop();
    await redis?.stop();
  });

  it('has panels that each ask the Prometheus data source something', () => {
    assert.ok(queries.length >= 20, `only ${queries.length} queries`);
    const ids = dashboard.panels.map((panel) => panel.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const panel of dashboard.panels.filter((candidate) => candidate.type !== 'row')) {
      // The data source is a variable, so the dashboard imports into any Grafana.
      assert.deepEqual(panel.datasource, { type: 'prometheus', uid: DATASOURCE_VARIABLE }, panel.title);
      assert.ok((panel.targets ?? []).length > 0, `${panel.title} has no query`);
    }
  });

  for (const { panel, target } of queries) {
    it(`${panel.title} (${target.refId}) answers${emptyReason(target.expr) ? '' : ' with data'}`, async () => {
      const series = await prometheus.queryRange(asGrafanaRuns(target.expr), 60);
      const reason = emptyReason(target.expr);
      if (reason) assert.deepEqual(series, [], `${target.expr} has data now: ${reason} no longer holds`);
      else assert.ok(series.length > 0, `no data for ${target.expr}`);
    });
  }

  it('shows what the traffic did', async () => {
    const labels = async (expr: string, label: string) =>
      (await prometheus.query(expr.replaceAll('$__rate_interval', '1m'))).map(
        (sample: Sample) => sample.metric[label],
      );
    const exprOf = (title: string, refId = 'A') => {
      const found = queries.find((query) => query.panel.title === title && query.target.refId === refId);
      assert.ok(found, `no panel ${title} ${refId}`);
      return found.target.expr;
    };
    assert.deepEqual((await labels(exprOf('Requests by status'), 'status')).sort(), [
      '200',
      '401',
      '403',
      '429',
      '502',
    ]);
    assert.deepEqual((await labels(exprOf('Refusals by reason'), 'reason')).sort(), [
      'INSUFFICIENT_SCOPE',
      'MALFORMED_KEY',
      'MISSING_KEY',
      'UNKNOWN_KEY',
    ]);
    assert.deepEqual([...new Set(await labels(exprOf('Upstream outcomes'), 'outcome'))].sort(), [
      'response',
      'unavailable',
    ]);
    const errors = await prometheus.query(exprOf('Server error ratio, live (5m)'));
    assert.ok(Number(errors[0]?.value[1]) > 0, 'the outage shows in the 5xx ratio');
    const commerce = await prometheus.query(exprOf('Commerce processes up'));
    assert.deepEqual(
      commerce.map((sample) => [sample.metric.instance, sample.value[1]]).sort(),
      [
        [hostOf(system.live.url), '0'],
        [hostOf(system.test.url), '1'],
      ].sort(),
    );
    assert.deepEqual(await labels(exprOf('Redis connection'), 'instance'), [hostOf(system.gateway.url)]);
    assert.deepEqual(
      (await labels(exprOf('Webhook deliveries open'), 'environment')).sort(),
      ['test', 'test'],
      'commerce live is gone: its series are stale',
    );
  });

  it('reads only metrics the gateway and commerce expose', async () => {
    const metadata = await prometheus.api<Record<string, unknown[]>>('/api/v1/metadata');
    const rules = readFileSync(RULES_FILE, 'utf8');
    const exprs = [...queries.map((query) => query.target.expr), ...rules.split('\n')];
    const read = new Set(exprs.flatMap(metricsOf));
    assert.ok(read.size > 20, [...read].join());
    for (const name of read) {
      if (name === 'up') continue;
      const family = name.replace(/_(bucket|count|sum)$/, '');
      assert.ok(metadata[name] ?? metadata[family], `no target exposes ${name}`);
    }
  });

  it('evaluates every alerting rule without error, and sees the outage coming', async () => {
    interface Rule {
      name: string;
      health: string;
      lastError?: string;
      state: string;
      alerts: Array<{ labels: Record<string, string> }>;
    }
    let rules: Rule[] = [];
    const state = (name: string) => rules.find((rule) => rule.name === name)?.state;
    // The rules are evaluated on their own interval: the scrapes the setup waited for may not have
    // been evaluated yet, so the states are read until the outage shows in them (or the wait fails).
    await waitUntil(
      'Prometheus evaluated the rules on the outage',
      async () => {
        const { groups } = await prometheus.api<{ groups: Array<{ rules: Rule[] }> }>('/api/v1/rules');
        rules = groups.flatMap((group) => group.rules);
        return (
          state('KeygateTraceSpansDropped') === 'pending' &&
          ['pending', 'firing'].includes(state('KeygateCommerceDown') ?? '')
        );
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    assert.ok(rules.length >= 10);
    for (const rule of rules) assert.equal(rule.health, 'ok', `${rule.name}: ${rule.lastError}`);
    // Pending for its 2 minutes, then firing: a slow machine may take that long to get here.
    assert.ok(
      ['pending', 'firing'].includes(state('KeygateCommerceDown') ?? ''),
      state('KeygateCommerceDown'),
    );
    assert.deepEqual(
      rules.find((rule) => rule.name === 'KeygateCommerceDown')?.alerts.map((alert) => alert.labels.instance),
      [hostOf(system.live.url)],
    );
    // 15 minutes before it fires.
    assert.equal(state('KeygateTraceSpansDropped'), 'pending');
    for (const quiet of ['KeygateGatewayDown', 'KeygateRedisUnavailable', 'KeygateWebhookDeliveryLag'])
      assert.equal(state(quiet), 'inactive', quiet);
  });
});

/** Why a query may answer no series on this traffic, or undefined when it must answer some. */
function emptyReason(expr: string): string | undefined {
  return metricsOf(expr)
    .map((name) => EMPTY_HERE[name])
    .find((reason) => reason !== undefined);
}
