import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));

/** The alerting rules, the one file ops and the PrometheusRule share. */
export const RULES_PATH = resolve(HERE, 'keygate-rules.yaml');

/** Where the Kubernetes component keeps its copy: kustomize reads no file outside its folder. */
export const PROMETHEUS_RULE_PATH = resolve(
  HERE,
  '../kubernetes/components/monitoring/keygate-prometheus-rule.yaml',
);

/**
 * The PrometheusRule (Prometheus Operator) holding the rules file's groups as its `spec`: the
 * file's text indented under `spec:`, its leading comment left out, so both say the same.
 */
export function renderPrometheusRule(rules: string): string {
  const body = rules.replace(/^(#.*\n)+/, '');
  const indented = body
    .split('\n')
    .map((line) => (line === '' ? line : `  ${line}`))
    .join('\n');
  return [
    '# Generated from deploy/monitoring/keygate-rules.yaml by `node deploy/monitoring/sync-prometheus-rule.ts`:',
    '# edit that file and run the script (tests/e2e/kubernetes-manifests.test.ts fails on a difference).',
    'apiVersion: monitoring.coreos.com/v1',
    'kind: PrometheusRule',
    'metadata:',
    '  name: keygate',
    '  labels:',
    '    app.kubernetes.io/name: keygate',
    '    app.kubernetes.io/component: monitoring',
    'spec:',
    indented,
  ].join('\n');
}

/** The PrometheusRule the rules file gives today. */
export const renderFromRulesFile = () => renderPrometheusRule(readFileSync(RULES_PATH, 'utf8'));
