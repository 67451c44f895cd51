import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parse } from 'yaml';
import {
  PROMETHEUS_RULE_PATH,
  RULES_PATH,
  renderFromRulesFile,
} from '../../deploy/monitoring/prometheus-rule.ts';
import { GATEWAY_MEMORY_LIMIT_MIB, GATEWAY_NODE_FLAGS } from '../../gateway/src/node-flags.ts';
import {
  containerOf,
  find,
  KUBERNETES_DIR,
  type KubeObject,
  OVERLAYS,
  type Overlay,
  podTemplateOf,
  renderKustomization,
  renderWithComponents,
  validateAgainstSchema,
} from '../support/kubernetes.ts';
import { ROOT } from '../support/processes.ts';

// Renders every overlay of deploy/kubernetes with `kubectl kustomize`, validates every object
// against the Kubernetes schemas, and holds what the gateway's code fixes (memory, pod security,
// the one-writer rule of commerce, who reaches commerce) in the rendered objects.
// kubernetes-runtime.test.ts runs the processes on the manifests' environment and probes.

const COMMERCE = ['keygate-commerce-live', 'keygate-commerce-test'];
const rendered = {} as Record<Overlay, KubeObject[]>;

/** Every workload's pod template, gateway and commerce. */
const workloadsOf = (objects: KubeObject[]) =>
  objects.filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet');

/** The MiB of a quantity such as `384Mi`. */
function mebibytes(quantity: unknown): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(String(quantity));
  assert.ok(match, `expected a Mi or Gi quantity, got ${String(quantity)}`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  before(async () => {
    for (const overlay of OVERLAYS)
      rendered[overlay] = await renderKustomization(resolve(KUBERNETES_DIR, 'overlays', overlay));
  });

  it('renders every overlay, and the ServiceMonitor component, into objects the schemas accept', async () => {
    const withMonitor = await renderWithComponents('redis', ['servicemonitor']);
    assert.equal(find(withMonitor, 'ServiceMonitor', 'keygate-gateway').spec.endpoints[0].path, '/metrics');
    for (const objects of [...Object.values(rendered), withMonitor]) {
      assert.ok(objects.length >= 8, `only ${objects.length} objects rendered`);
      for (const object of objects) {
        await validateAgainstSchema(object).catch((error: Error) =>
          assert.fail(`${object.kind} ${object.metadata.name}: ${error.message}`),
        );
      }
    }
  });

  it('ships the alerting rules of deploy/monitoring as a PrometheusRule in the monitoring component', async () => {
    assert.equal(
      readFileSync(PROMETHEUS_RULE_PATH, 'utf8'),
      renderFromRulesFile(),
      'the PrometheusRule differs from deploy/monitoring/keygate-rules.yaml: run node deploy/monitoring/sync-prometheus-rule.ts',
    );
    const objects = await renderWithComponents('redis', ['servicemonitor', 'monitoring']);
    const rule = find(objects, 'PrometheusRule', 'keygate');
    await validateAgainstSchema(rule);
    // What kustomize renders is what promtool tests (monitoring-rules.test.ts).
    assert.deepEqual(rule.spec, parse(readFileSync(RULES_PATH, 'utf8')));
    const exprs: string[] = rule.spec.groups.flatMap((group: { rules: Array<{ expr: string }> }) =>
      group.rules.map((r) => r.expr),
    );
    const jobs = exprs.flatMap((expr) => [...expr.matchAll(/job="([^"]+)"/g)].map((match) => match[1]));
    // The Prometheus Operator names a ServiceMonitor's job after the Service it scrapes.
    const monitor = find(objects, 'ServiceMonitor', 'keygate-gateway');
    const service = find(objects, 'Service', monitor.metadata.name);
    assert.ok(jobs.length > 0);
    assert.deepEqual([...new Set(jobs)], [service.metadata.name]);
  });

  it('the validator refuses an object the API server would refuse', async () => {
    const deployment = find(rendered.redis, 'Deployment', 'keygate-gateway');
    const broken = structuredClone(deployment);
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    await assert.rejects(validateAgainstSchema(broken), /containerPort must be integer/);
  });

  it('gives the gateway the memory limit and heap limit of gateway/src/node-flags.ts', () => {
    for (const overlay of OVERLAYS) {
      const gateway = containerOf(find(rendered[overlay], 'Deployment', 'keygate-gateway'), 'gateway');
      assert.equal(mebibytes(gateway.resources?.limits?.memory), GATEWAY_MEMORY_LIMIT_MIB);
      // The image's CMD carries the heap flag (held equal to node-flags.ts by start.test.ts): the
      // manifests must not replace it.
      assert.equal(gateway.command, undefined);
      assert.equal(gateway.args, undefined);
      const oldSpace = GATEWAY_NODE_FLAGS.find((flag) => flag.startsWith('--max-old-space-size='));
      assert.ok(Number(oldSpace?.split('=')[1]) < GATEWAY_MEMORY_LIMIT_MIB);
      // The request is the bench's RSS after its load with 100,000 keys (bench/RESULTS.md).
      const results = readFileSync(resolve(ROOT, 'bench/RESULTS.md'), 'utf8');
      const measured = /RSS after the load, memory mode \(100k keys\) \| ([\d.]+) MiB/.exec(results);
      assert.ok(measured, 'bench/RESULTS.md has no after-load RSS with 100k keys');
      const request = mebibytes(gateway.resources?.requests?.memory);
      assert.ok(
        request >= Number(measured[1]) && request < GATEWAY_MEMORY_LIMIT_MIB,
        `request ${request} MiB`,
      );
      assert.ok(gateway.resources?.requests?.cpu, 'the autoscaler needs a CPU request');
    }
  });

  it('runs every pod as non-root on a read-only root, seccomp RuntimeDefault, without a token', () => {
    for (const overlay of OVERLAYS) {
      for (const workload of workloadsOf(rendered[overlay])) {
        const where = `${overlay}: ${workload.metadata.name}`;
        const pod = podTemplateOf(workload).spec;
        assert.equal(pod?.automountServiceAccountToken, false, where);
        // Service links would inject e.g. COMMERCE_PORT=tcp://… for a Service named `commerce`.
        assert.equal(pod?.enableServiceLinks, false, where);
        assert.equal(pod?.securityContext?.runAsNonRoot, true, where);
        assert.equal(pod?.securityContext?.seccompProfile?.type, 'RuntimeDefault', where);
        for (const container of pod?.containers ?? []) {
          assert.equal(container.securityContext?.readOnlyRootFilesystem, true, where);
          assert.equal(container.securityContext?.allowPrivilegeEscalation, false, where);
          assert.deepEqual(container.securityContext?.capabilities?.drop, ['ALL'], where);
          const mounts = (container.volumeMounts ?? []).map((mount) => mount.mountPath);
          assert.ok(mounts.includes('/data') && mounts.includes('/tmp'), `${where}: writable paths`);
        }
      }
    }
  });

  it('redis: 2..N gateways under an autoscaler, a PodDisruptionBudget and topology spread', () => {
    const deployment = find(rendered.redis, 'Deployment', 'keygate-gateway');
    const labels = podTemplateOf(deployment).metadata?.labels ?? {};
    assert.equal(deployment.spec.replicas, undefined, 'the autoscaler owns the replica count');
    assert.deepEqual(deployment.spec.strategy.rollingUpdate, { maxSurge: 1, maxUnavailable: 0 });
    const hpa = find(rendered.redis, 'HorizontalPodAutoscaler', 'keygate-gateway')
      .spec as IHorizontalPodAutoscaler['spec'];
    assert.deepEqual(hpa?.scaleTargetRef, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'keygate-gateway',
    });
    assert.equal(hpa?.minReplicas, 2);
    assert.ok(hpa.maxReplicas > 2);
    assert.equal(hpa.metrics?.[0]?.resource?.name, 'cpu');
    const pdb = find(rendered.redis, 'PodDisruptionBudget', 'keygate-gateway')
      .spec as IPodDisruptionBudget['spec'];
    assert.equal(pdb?.minAvailable, 1);
    assert.ok(
      Object.entries(pdb?.selector?.matchLabels ?? {}).every(([key, value]) => labels[key] === value),
    );
    const spread = podTemplateOf(deployment).spec?.topologySpreadConstraints ?? [];
    assert.deepEqual(
      spread.map((constraint) => constraint.topologyKey),
      ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
    );
    for (const { labelSelector } of spread)
      assert.equal(labelSelector?.matchLabels?.['app.kubernetes.io/name'], labels['app.kubernetes.io/name']);
  });

  it('single: one gateway on a PersistentVolumeClaim, replaced not rolled, no autoscaler', () => {
    const objects = rendered.single;
    const deployment = find(objects, 'Deployment', 'keygate-gateway');
    assert.equal(deployment.spec.replicas, 1);
    assert.equal(deployment.spec.strategy.type, 'Recreate');
    const data = podTemplateOf(deployment).spec?.volumes?.find((volume) => volume.name === 'data');
    assert.deepEqual(data, { name: 'data', persistentVolumeClaim: { claimName: 'keygate-gateway-data' } });
    find(objects, 'PersistentVolumeClaim', 'keygate-gateway-data');
    assert.equal(objects.filter((object) => object.kind === 'HorizontalPodAutoscaler').length, 0);
    assert.equal(objects.filter((object) => object.kind === 'PodDisruptionBudget').length, 0);
  });

  it('runs commerce as StatefulSets of one replica on their own volume that never run two', () => {
    for (const overlay of OVERLAYS) {
      for (const name of COMMERCE) {
        const set = find(rendered[overlay], 'StatefulSet', name);
        assert.equal(set.spec.replicas, 1);
        // A StatefulSet replaces its one pod only after the old one is gone; no partition or
        // maxUnavailable can make it run two.
        assert.equal(set.spec.updateStrategy.type, 'RollingUpdate');
        assert.equal(set.spec.updateStrategy.rollingUpdate?.maxUnavailable, undefined);
        assert.equal(set.spec.podManagementPolicy, 'OrderedReady');
        const claims = set.spec.volumeClaimTemplates as KubeObject[];
        assert.deepEqual(
          claims.map((claim) => [claim.metadata.name, claim.spec.accessModes]),
          [['data', ['ReadWriteOnce']]],
        );
      }
    }
  });

  it('lets only gateway pods reach commerce', () => {
    for (const overlay of OVERLAYS) {
      const objects = rendered[overlay];
      const policies = objects.filter((object) => object.kind === 'NetworkPolicy');
      assert.equal(policies.length, 1);
      const policy = policies[0]?.spec as INetworkPolicy['spec'];
      const selects = (selector: Record<string, string> | undefined, object: KubeObject) =>
        Object.entries(selector ?? {}).every(
          ([key, value]) => podTemplateOf(object).metadata?.labels?.[key] === value,
        );
      const gateway = find(objects, 'Deployment', 'keygate-gateway');
      for (const name of COMMERCE)
        assert.ok(selects(policy?.podSelector?.matchLabels, find(objects, 'StatefulSet', name)), name);
      assert.ok(!selects(policy?.podSelector?.matchLabels, gateway), 'the gateway stays reachable');
      assert.deepEqual(policy?.policyTypes, ['Ingress']);
      const peers = (policy?.ingress ?? []).flatMap((rule) => rule.from ?? []);
      assert.equal(policy?.ingress?.length, 1);
      assert.equal(peers.length, 1, 'one peer: the gateway pods');
      assert.equal(peers[0]?.namespaceSelector, undefined);
      assert.equal(peers[0]?.ipBlock, undefined);
      assert.ok(selects(peers[0]?.podSelector?.matchLabels, gateway));
      assert.ok(Object.keys(peers[0]?.podSelector?.matchLabels ?? {}).length > 0);
    }
  });

  it('ships the route table of gateway/routes.json in the ConfigMap', () => {
    const shipped = JSON.parse(readFileSync(resolve(ROOT, 'gateway/routes.json'), 'utf8'));
    for (const overlay of OVERLAYS) {
      const map = rendered[overlay].find((object) => object.metadata.name.startsWith('keygate-routes'));
      assert.ok(map?.data?.['routes.json'], `${overlay}: no keygate-routes ConfigMap`);
      assert.deepEqual(
        JSON.parse(map.data['routes.json']),
        shipped,
        'deploy/kubernetes/base/routes.json differs from gateway/routes.json: copy it',
      );
    }
  });
});
