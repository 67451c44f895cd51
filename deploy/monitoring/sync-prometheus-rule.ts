// Writes deploy/kubernetes/components/monitoring/keygate-prometheus-rule.yaml from
// deploy/monitoring/keygate-rules.yaml: run it after editing the rules.
//   node deploy/monitoring/sync-prometheus-rule.ts
import { writeFileSync } from 'node:fs';
import { PROMETHEUS_RULE_PATH, renderFromRulesFile } from './prometheus-rule.ts';

writeFileSync(PROMETHEUS_RULE_PATH, renderFromRulesFile());
process.stdout.write(`wrote ${PROMETHEUS_RULE_PATH}\n`);
