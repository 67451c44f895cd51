import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseConfig } from '../../commerce/src/config.ts';
import { loadConfig } from '../../gateway/src/config.ts';
import { SHUTDOWN_OVERRUN_MS } from '../../gateway/src/ops/shutdown-deadline.ts';
import { shellSnippets } from '../support/doc-snippets.ts';
import {
  containerOf,
  find,
  KUBERNETES_DIR,
  OVERLAYS,
  type Overlay,
  podTemplateOf,
  readDockerfile,
} from '../support/kubernetes.ts';
import {
  type Deployed,
  DOCS,
  deploy,
  gatewayEnvWithRoutes,
  httpPort,
  processEnv,
  WORKLOADS,
  workloadOf,
} from '../support/kubernetes-env.ts';
import { ROOT, tempDir } from '../support/processes.ts';

// The manifests against the code they run: the Secrets the documented commands create, the images
// and ports the Dockerfiles build, the environment the gateway's and commerce's own config parsers
// accept, and the shutdown deadline. kubernetes-probes.test.ts starts the processes on it.

let deployed: Deployed;
const scratch = tempDir('keygate-k8s-');

describe('Kubernetes manifests against the code (deploy/kubernetes)', () => {
  before(async () => {
    deployed = await deploy(scratch.path);
  });
  after(() => scratch.remove());

  it('the documented commands create the two Secrets the manifests read', () => {
    assert.deepEqual(Object.keys(deployed.secrets).sort(), ['keygate-keys', 'keygate-redis']);
    assert.deepEqual(Object.keys(deployed.secrets['keygate-keys'] ?? {}).sort(), [
      'identity-private-jwk',
      'secret-tag-key',
    ]);
    assert.deepEqual(Object.keys(deployed.secrets['keygate-redis'] ?? {}), ['url']);
  });

  it('the documented commands name overlays and objects the manifests have', () => {
    const commands = shellSnippets(DOCS)
      .map((snippet) => snippet.text)
      .join('\n');
    const overlays = [...commands.matchAll(/-k deploy\/kubernetes\/overlays\/(\w+)/g)].map((m) => m[1]);
    assert.ok(
      overlays.length > 0 && overlays.every((name) => OVERLAYS.includes(name as Overlay)),
      `${overlays}`,
    );
    const kinds: Record<string, string> = {
      deployment: 'Deployment',
      deploy: 'Deployment',
      statefulset: 'StatefulSet',
      hpa: 'HorizontalPodAutoscaler',
    };
    const named = [...commands.matchAll(/\b(deployment|deploy|statefulset|hpa)[/ ](keygate-[\w-]+)/g)];
    assert.ok(named.length >= 5, `${named.length} objects named`);
    for (const [, kind, name] of named)
      find(deployed.rendered.redis, kinds[kind as string] as string, name as string);
  });

  it('names the images the Dockerfiles build, on the port they expose, as the user they run as', () => {
    const version = JSON.parse(readFileSync(resolve(ROOT, 'gateway/package.json'), 'utf8')).version;
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS) {
        const object = workloadOf(deployed, overlay, entry);
        const container = containerOf(object, entry.container);
        const dockerfile = readDockerfile(entry.dockerfile);
        assert.equal(container.image, `${dockerfile.image}:${version}`, entry.name);
        assert.deepEqual([httpPort(container)], dockerfile.exposed, entry.name);
        // USER node: uid 1000 in the official Node images, numeric so runAsNonRoot can be checked.
        assert.equal(dockerfile.user, 'node');
        assert.equal(podTemplateOf(object).spec?.securityContext?.runAsUser, 1000);
      }
    }
  });

  it("the gateway's config accepts its environment: port, data dir, Secrets, store, upstreams", () => {
    for (const overlay of OVERLAYS) {
      const config = loadConfig(gatewayEnvWithRoutes(deployed, overlay));
      const container = containerOf(workloadOf(deployed, overlay, WORKLOADS[0]), 'gateway');
      assert.equal(config.port, httpPort(container));
      assert.equal(config.host, '0.0.0.0');
      assert.ok(container.volumeMounts?.some((mount) => mount.mountPath === config.dataDir));
      assert.ok(config.identityPrivateJwk, 'the identity key comes from the Secret');
      assert.ok(config.secretTagKey, 'the secret tag key comes from the Secret');
      assert.equal(config.redisUrl, overlay === 'redis' ? deployed.secrets['keygate-redis']?.url : null);
      const upstream = config.routes.upstreams[config.routes.defaultUpstream];
      for (const environment of ['live', 'test'] as const) {
        const url = new URL(upstream?.[environment] ?? '');
        const service = find(deployed.rendered[overlay], 'Service', url.hostname);
        assert.equal(Number(url.port), service.spec.ports[0].port, url.href);
        assert.equal(service.spec.selector['app.kubernetes.io/instance'], environment);
      }
    }
  });

  it('the commented Sentinel and Cluster alternatives of the redis overlay are accepted', () => {
    const patch = readFileSync(resolve(KUBERNETES_DIR, 'overlays/redis/gateway-redis.yaml'), 'utf8');
    const commented = [...patch.matchAll(/^\s*# - name: (\w+)\n\s*#\s+value: (\S+)$/gm)];
    const alternative = Object.fromEntries(commented.map(([, name, value]) => [name, value]));
    const { REDIS_URL: _, ...withoutUrl } = gatewayEnvWithRoutes(deployed, 'redis');
    const sentinel = loadConfig({
      ...withoutUrl,
      KEYGATE_REDIS_SENTINELS: alternative.KEYGATE_REDIS_SENTINELS,
      KEYGATE_REDIS_SENTINEL_NAME: alternative.KEYGATE_REDIS_SENTINEL_NAME,
    });
    assert.equal((sentinel.redisUrl as { sentinels: unknown[] }).sentinels.length, 3);
    const cluster = loadConfig({
      ...withoutUrl,
      KEYGATE_REDIS_CLUSTER_NODES: alternative.KEYGATE_REDIS_CLUSTER_NODES,
    });
    assert.equal((cluster.redisUrl as { clusterNodes: unknown[] }).clusterNodes.length, 2);
  });

  it("commerce's config accepts its environment: environment, port, the gateway's JWKS", () => {
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS.slice(1)) {
        const config = parseConfig(processEnv(deployed, overlay, entry));
        const container = containerOf(workloadOf(deployed, overlay, entry), 'commerce');
        assert.equal(`keygate-commerce-${config.environment}`, entry.name);
        assert.equal(config.port, httpPort(container));
        assert.ok(container.volumeMounts?.some((mount) => mount.mountPath === config.dataDir));
        assert.equal(config.jwks.kind, 'url');
        const url = config.jwks.kind === 'url' ? config.jwks.url : new URL('file:');
        const gateway = find(deployed.rendered[overlay], 'Service', url.hostname);
        assert.equal(Number(url.port), gateway.spec.ports[0].port);
        assert.equal(url.pathname, '/.well-known/jwks.json');
      }
    }
  });

  it('gives each pod longer than its preStop pause plus its drain deadline', () => {
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS) {
        const object = workloadOf(deployed, overlay, entry);
        const env =
          entry.container === 'gateway'
            ? gatewayEnvWithRoutes(deployed, overlay)
            : processEnv(deployed, overlay, entry);
        const graceMs =
          entry.container === 'gateway' ? loadConfig(env).shutdownGraceMs : parseConfig(env).shutdownGraceMs;
        const preStop = containerOf(object, entry.container).lifecycle?.preStop?.exec?.command ?? [];
        assert.equal(preStop[0], 'sleep');
        const pauseSeconds = Number(preStop[1]);
        assert.ok(pauseSeconds >= 3, 'endpoints need a few seconds to drop the pod');
        // Both services exit within their grace period plus the same overrun (docs/operations.md#shutdown).
        const deadlineSeconds = pauseSeconds + (graceMs + SHUTDOWN_OVERRUN_MS) / 1000;
        const terminationGrace = podTemplateOf(object).spec?.terminationGracePeriodSeconds ?? 30;
        assert.ok(
          terminationGrace > deadlineSeconds,
          `${entry.name}: ${terminationGrace} s <= ${deadlineSeconds} s`,
        );
      }
    }
  });
});
