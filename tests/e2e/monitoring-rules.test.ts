import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from '../support/processes.ts';
import { promtool, RULES_FILE, RULES_TEST_FILE } from '../support/prometheus.ts';

// The alerting rules of deploy/monitoring, checked and unit-tested by Debian's promtool, and held
// to what an on-call engineer needs from an alert: a wait, a severity, a text and where to look.
// monitoring-dashboard.test.ts evaluates the same rules in a real Prometheus scraping keygate.

interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface RulesTest {
  alert_rule_test?: Array<{ alertname: string; exp_alerts?: unknown[] }>;
}

const rules = (
  parse(readFileSync(RULES_FILE, 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
).groups.flatMap((group) => group.rules);

/** Markdown heading anchors of a file, as GitHub makes them. */
function anchorsOf(file: string): Set<string> {
  const headings = readFileSync(resolve(ROOT, file), 'utf8').match(/^#{1,6} .+$/gm) ?? [];
  return new Set(
    headings.map((heading) =>
      heading
        .replace(/^#+ /, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} -]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('Prometheus alerting rules (deploy/monitoring/keygate-rules.yaml)', () => {
  it('pass `promtool check rules`', async () => {
    const checked = await promtool('check', 'rules', RULES_FILE);
    assert.equal(checked.code, 0, checked.output);
    assert.match(checked.output, new RegExp(`SUCCESS: ${rules.length} rules found`));
  });

  it('pass their unit tests, `promtool test rules`', async function () {
    this.timeout(120_000);
    const tested = await promtool('test', 'rules', RULES_TEST_FILE);
    assert.equal(tested.code, 0, tested.output);
    assert.match(tested.output, /SUCCESS/);
  });

  it('the unit tests see every alert fire', () => {
    const tests = (parse(readFileSync(RULES_TEST_FILE, 'utf8')) as { tests: RulesTest[] }).tests;
    const fired = new Set(
      tests.flatMap((test) =>
        (test.alert_rule_test ?? []).filter((t) => (t.exp_alerts ?? []).length > 0).map((t) => t.alertname),
      ),
    );
    assert.deepEqual(
      rules.map((rule) => rule.alert).filter((alert) => !fired.has(alert)),
      [],
      'alerts no unit test sees firing',
    );
  });

  it('cover what the issue asks for', () => {
    const exprs = rules.map((rule) => rule.expr).join('\n');
    for (const metric of [
      'up{job="keygate-gateway"}',
      'keygate_requests_total{status=~"5.."',
      'keygate_auth_failures_total',
      'keygate_rate_limited_total',
      'keygate_redis_up',
      'webhook_deliveries_open',
      'webhook_delivery_lag_seconds',
      'keygate_trace_spans_dropped_total',
    ])
      assert.ok(exprs.includes(metric), `no rule reads ${metric}`);
  });

  it('give every alert a wait, a severity, a summary, a description and a runbook that exists', () => {
    const docs = { 'docs/operations.md': anchorsOf('docs/operations.md') };
    for (const rule of rules) {
      assert.match(rule.for ?? '', /^\d+m$/, `${rule.alert}: for`);
      assert.ok(['critical', 'warning'].includes(rule.labels?.severity ?? ''), `${rule.alert}: severity`);
      const { summary, description, runbook } = rule.annotations ?? {};
      assert.ok(summary && description && runbook, `${rule.alert}: summary, description and runbook`);
      const links = [...runbook.matchAll(/(docs\/[\w-]+\.md)#([\w-]+)/g)];
      assert.ok(links.length > 0, `${rule.alert}: the runbook names no section of docs/`);
      for (const [, file, anchor] of links) {
        assert.ok(file === 'docs/operations.md', `${rule.alert}: ${file}`);
        assert.ok(docs[file].has(anchor as string), `${rule.alert}: ${file} has no section #${anchor}`);
      }
    }
  });
});
