import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { containerOf, podTemplateOf } from '../support/kubernetes.ts';
import {
  type Deployed,
  deploy,
  gatewayEnvWithRoutes,
  httpPort,
  processEnv,
  WORKLOADS,
  workloadOf,
} from '../support/kubernetes-env.ts';
import { freePort, type Service, startService, tempDir } from '../support/processes.ts';

// Real gateway and commerce processes started on the single overlay's environment (the Secrets
// from the documented commands, the image's ENV, the routes ConfigMap), with only the addresses
// and data directories made local: every probe path the manifests name answers 200.

let deployed: Deployed;
const scratch = tempDir('keygate-k8s-probes-');

describe('Kubernetes manifests: processes started on the single overlay environment', () => {
  const services: Record<string, Service> = {};
  before(async function () {
    this.timeout(90_000);
    deployed = await deploy(scratch.path);
    const ports = { gateway: await freePort(), live: await freePort(), test: await freePort() };
    const local = (port: number) => `http://127.0.0.1:${port}`;
    for (const entry of WORKLOADS.slice(1)) {
      const environment = entry.name.endsWith('live') ? 'live' : 'test';
      const dataDir = join(scratch.path, environment);
      mkdirSync(dataDir);
      const jwks = new URL(processEnv(deployed, 'single', entry).KEYGATE_JWKS_URL ?? '');
      services[entry.name] = await startService({
        name: entry.name,
        script: 'commerce/src/main.ts',
        port: ports[environment],
        readyPath: '/healthz',
        env: {
          ...processEnv(deployed, 'single', entry),
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
        ...gatewayEnvWithRoutes(deployed, 'single'),
        GATEWAY_HOST: '127.0.0.1',
        GATEWAY_PORT: String(ports.gateway),
        KEYGATE_DATA_DIR: join(scratch.path, 'gateway'),
        KEYGATE_UPSTREAM_LIVE: local(ports.live),
        KEYGATE_UPSTREAM_TEST: local(ports.test),
        REDIS_URL: '',
      },
    });
  });
  after(async () => {
    await Promise.all(Object.values(services).map((service) => service.stop()));
    scratch.remove();
  });

  it('every probe path, and the scrape path, answers 200 on the real services', async () => {
    for (const entry of WORKLOADS) {
      const object = workloadOf(deployed, 'single', entry);
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
    const jwks = new URL(processEnv(deployed, 'single', WORKLOADS[1]).KEYGATE_JWKS_URL ?? '');
    const response = await fetch(`${services['keygate-gateway']?.url}${jwks.pathname}`);
    const body = (await response.json()) as { keys: Array<{ x?: string }> };
    assert.equal(response.status, 200);
    // The key from the Secret keygate-keys: every replica publishes and signs with the same one.
    const secretJwk = JSON.parse(deployed.secrets['keygate-keys']?.['identity-private-jwk'] ?? '{}');
    assert.deepEqual(
      body.keys.map((key) => key.x),
      [secretJwk.x],
    );
  });
});
