import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { parseConfig } from '../../commerce/src/config.ts';
import { loadConfig } from '../../gateway/src/config.ts';
import { SHUTDOWN_OVERRUN_MS } from '../../gateway/src/ops/shutdown-deadline.ts';
import { jsonValues, runShell, shellSnippets } from '../support/doc-snippets.ts';
import {
  containerOf,
  environmentOf,
  find,
  KUBERNETES_DIR,
  type KubeObject,
  OVERLAYS,
  type Overlay,
  podTemplateOf,
  readDockerfile,
  renderKustomization,
} from '../support/kubernetes.ts';
import { freePort, ROOT, type Service, startService, tempDir } from '../support/processes.ts';

// The manifests against the code they run: the Secrets the documented commands create, the images
// and ports the Dockerfiles build, the environment the gateway's and commerce's own config parsers
// accept, the shutdown deadline, and real processes started on the manifests' environment
// answering every probe path.

type Secrets = Record<string, Record<string, string>>;
const DOCS = 'docs/kubernetes.md';
const WORKLOADS = [
  { kind: 'Deployment', name: 'keygate-gateway', container: 'gateway', dockerfile: 'gateway/Dockerfile' },
  {
    kind: 'StatefulSet',
    name: 'keygate-commerce-live',
    container: 'commerce',
    dockerfile: 'commerce/Dockerfile',
  },
  {
    kind: 'StatefulSet',
    name: 'keygate-commerce-test',
    container: 'commerce',
    dockerfile: 'commerce/Dockerfile',
  },
] as const;

const rendered = {} as Record<Overlay, KubeObject[]>;
let secrets: Secrets = {};
const scratch = tempDir('keygate-k8s-');

/** Runs the documented `kubectl create secret` block with a client-side dry run: the Secrets it makes. */
async function createDocumentedSecrets(): Promise<Secrets> {
  const block = shellSnippets(DOCS).find((snippet) =>
    snippet.firstLine.startsWith('kubectl create secret generic keygate-keys'),
  );
  assert.ok(block, `${DOCS} has no block creating the Secret keygate-keys`);
  const dryRun = block.text.replaceAll('secret generic ', 'secret generic --dry-run=client -o json ');
  const run = await runShell(dryRun, { ...process.env });
  assert.equal(run.code, 0, `the documented commands failed:\n${run.stderr}`);
  const created: Secrets = {};
  for (const secret of jsonValues(run.stdout) as KubeObject[]) {
    const data = Object.entries(secret.data ?? {}).map(([key, value]) => [
      key,
      Buffer.from(value, 'base64').toString('utf8'),
    ]);
    created[secret.metadata.name] = Object.fromEntries(data);
  }
  return created;
}

const workload = (overlay: Overlay, kind: string, name: string) => find(rendered[overlay], kind, name);
const httpPort = (container: IContainer) =>
  container.ports?.find((port) => port.name === 'http')?.containerPort;

/** The process environment of a container: its image's ENV, then the manifest's. */
function processEnv(overlay: Overlay, entry: (typeof WORKLOADS)[number]): Record<string, string> {
  const container = containerOf(workload(overlay, entry.kind, entry.name), entry.container);
  return { ...readDockerfile(entry.dockerfile).env, ...environmentOf(container, secrets) };
}

/** The gateway's environment with KEYGATE_ROUTES_FILE where the ConfigMap is mounted, read from a local copy. */
function gatewayEnvWithRoutes(overlay: Overlay): Record<string, string> {
  const deployment = workload(overlay, 'Deployment', 'keygate-gateway');
  const env = processEnv(overlay, WORKLOADS[0]);
  const mount = containerOf(deployment, 'gateway').volumeMounts?.find((m) => m.name === 'routes');
  const volume = podTemplateOf(deployment).spec?.volumes?.find((v) => v.name === 'routes');
  assert.equal(env.KEYGATE_ROUTES_FILE, `${mount?.mountPath}/routes.json`);
  const map = find(rendered[overlay], 'ConfigMap', volume?.configMap?.name ?? '');
  const routesFile = join(scratch.path, `routes-${overlay}.json`);
  writeFileSync(routesFile, map.data?.['routes.json'] ?? '');
  return { ...env, KEYGATE_ROUTES_FILE: routesFile };
}

describe('Kubernetes manifests against the code (deploy/kubernetes)', () => {
  before(async () => {
    for (const overlay of OVERLAYS)
      rendered[overlay] = await renderKustomization(resolve(KUBERNETES_DIR, 'overlays', overlay));
    secrets = await createDocumentedSecrets();
  });
  after(() => scratch.remove());

  it('the documented commands create the two Secrets the manifests read', () => {
    assert.deepEqual(Object.keys(secrets).sort(), ['keygate-keys', 'keygate-redis']);
    assert.deepEqual(Object.keys(secrets['keygate-keys'] ?? {}).sort(), [
      'identity-private-jwk',
      'secret-tag-key',
    ]);
    assert.deepEqual(Object.keys(secrets['keygate-redis'] ?? {}), ['url']);
  });

  it('names the images the Dockerfiles build, on the port they expose, as the user they run as', () => {
    const version = JSON.parse(readFileSync(resolve(ROOT, 'gateway/package.json'), 'utf8')).version;
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS) {
        const object = workload(overlay, entry.kind, entry.name);
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
      const config = loadConfig(gatewayEnvWithRoutes(overlay));
      const container = containerOf(workload(overlay, 'Deployment', 'keygate-gateway'), 'gateway');
      assert.equal(config.port, httpPort(container));
      assert.equal(config.host, '0.0.0.0');
      assert.ok(container.volumeMounts?.some((mount) => mount.mountPath === config.dataDir));
      assert.ok(config.identityPrivateJwk, 'the identity key comes from the Secret');
      assert.ok(config.secretTagKey, 'the secret tag key comes from the Secret');
      assert.equal(config.redisUrl, overlay === 'redis' ? secrets['keygate-redis']?.url : null);
      const upstream = config.routes.upstreams[config.routes.defaultUpstream];
      for (const environment of ['live', 'test'] as const) {
        const url = new URL(upstream?.[environment] ?? '');
        const service = find(rendered[overlay], 'Service', url.hostname);
        assert.equal(Number(url.port), service.spec.ports[0].port, url.href);
        assert.equal(service.spec.selector['app.kubernetes.io/instance'], environment);
      }
    }
  });

  it("commerce's config accepts its environment: environment, port, the gateway's JWKS", () => {
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS.slice(1)) {
        const config = parseConfig(processEnv(overlay, entry));
        const container = containerOf(workload(overlay, entry.kind, entry.name), 'commerce');
        assert.equal(`keygate-commerce-${config.environment}`, entry.name);
        assert.equal(config.port, httpPort(container));
        assert.ok(container.volumeMounts?.some((mount) => mount.mountPath === config.dataDir));
        assert.equal(config.jwks.kind, 'url');
        const url = config.jwks.kind === 'url' ? config.jwks.url : new URL('file:');
        const gateway = find(rendered[overlay], 'Service', url.hostname);
        assert.equal(Number(url.port), gateway.spec.ports[0].port);
        assert.equal(url.pathname, '/.well-known/jwks.json');
      }
    }
  });

  it('gives each pod longer than its preStop pause plus its drain deadline', () => {
    for (const overlay of OVERLAYS) {
      for (const entry of WORKLOADS) {
        const object = workload(overlay, entry.kind, entry.name);
        const env =
          entry.container === 'gateway' ? gatewayEnvWithRoutes(overlay) : processEnv(overlay, entry);
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

  describe('processes started on the single overlay environment', () => {
    const services: Record<string, Service> = {};
    before(async function () {
      this.timeout(90_000);
      const ports = { gateway: await freePort(), live: await freePort(), test: await freePort() };
      const local = (port: number) => `http://127.0.0.1:${port}`;
      for (const entry of WORKLOADS.slice(1)) {
        const environment = entry.name.endsWith('live') ? 'live' : 'test';
        const dataDir = join(scratch.path, environment);
        mkdirSync(dataDir);
        const jwks = new URL(processEnv('single', entry).KEYGATE_JWKS_URL ?? '');
        services[entry.name] = await startService({
          name: entry.name,
          script: 'commerce/src/main.ts',
          port: ports[environment],
          readyPath: '/healthz',
          env: {
            ...processEnv('single', entry),
            COMMERCE_HOST: '127.0.0.1',
            COMMERCE_PORT: String(ports[environment]),
            KEYGATE_DATA_DIR: dataDir,
            KEYGATE_JWKS_URL: `${local(ports.gateway)}${jwks.pathname}`,
          },
        });
      }
      services['keygate-gateway'] = await startService({
        name: 'keygate-gateway',
        script: 'gateway/src/main.ts',
        port: ports.gateway,
        env: {
          ...gatewayEnvWithRoutes('single'),
          GATEWAY_HOST: '127.0.0.1',
          GATEWAY_PORT: String(ports.gateway),
          KEYGATE_DATA_DIR: join(scratch.path, 'gateway'),
          KEYGATE_UPSTREAM_LIVE: local(ports.live),
          KEYGATE_UPSTREAM_TEST: local(ports.test),
          REDIS_URL: '',
        },
      });
    });
    after(() => Promise.all(Object.values(services).map((service) => service.stop())));

    it('every probe path, and the scrape path, answers 200 on the real services', async () => {
      for (const entry of WORKLOADS) {
        const object = workload('single', entry.kind, entry.name);
        const container = containerOf(object, entry.container);
        const probes = [container.startupProbe, container.livenessProbe, container.readinessProbe];
        const paths = probes.map((probe) => probe?.httpGet?.path);
        assert.deepEqual(paths, ['/healthz', '/healthz', '/readyz'], entry.name);
        assert.ok(probes.every((probe) => probe?.httpGet?.port === 'http'));
        const annotations = podTemplateOf(object).metadata?.annotations ?? {};
        const scrape = annotations['prometheus.io/path'];
        if (scrape) assert.equal(Number(annotations['prometheus.io/port']), httpPort(container));
        for (const path of [...paths, ...(scrape ? [scrape] : [])]) {
          const response = await fetch(`${services[entry.name]?.url}${path}`);
          await response.body?.cancel();
          assert.equal(response.status, 200, `${entry.name} ${path}`);
        }
      }
    });

    it("the gateway serves the JWKS at the path commerce's manifest names", async () => {
      const jwks = new URL(processEnv('single', WORKLOADS[1]).KEYGATE_JWKS_URL ?? '');
      const response = await fetch(`${services['keygate-gateway']?.url}${jwks.pathname}`);
      const body = (await response.json()) as { keys: Array<{ kid: string }> };
      assert.equal(response.status, 200);
      // The key from the Secret keygate-keys: every replica publishes and signs with the same one.
      const secretJwk = JSON.parse(secrets['keygate-keys']?.['identity-private-jwk'] ?? '{}');
      assert.deepEqual(
        body.keys.map((key) => (key as { x?: string }).x),
        [secretJwk.x],
      );
    });
  });
});
