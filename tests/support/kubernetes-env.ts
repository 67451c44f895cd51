import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { jsonValues, runShell, shellSnippets } from './doc-snippets.ts';
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
} from './kubernetes.ts';

// The rendered overlays with the Secrets the documented commands make: what a cluster would run.

export type Secrets = Record<string, Record<string, string>>;
export const DOCS = 'docs/kubernetes.md';
export const WORKLOADS = [
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
export type Workload = (typeof WORKLOADS)[number];

/** Every overlay rendered, the documented Secrets, and a scratch directory for local copies. */
export interface Deployed {
  rendered: Record<Overlay, KubeObject[]>;
  secrets: Secrets;
  scratchDir: string;
}

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

export async function deploy(scratchDir: string): Promise<Deployed> {
  const rendered = {} as Record<Overlay, KubeObject[]>;
  for (const overlay of OVERLAYS)
    rendered[overlay] = await renderKustomization(resolve(KUBERNETES_DIR, 'overlays', overlay));
  return { rendered, secrets: await createDocumentedSecrets(), scratchDir };
}

export const workloadOf = (deployed: Deployed, overlay: Overlay, entry: Pick<Workload, 'kind' | 'name'>) =>
  find(deployed.rendered[overlay], entry.kind, entry.name);

export const httpPort = (container: IContainer) =>
  container.ports?.find((port) => port.name === 'http')?.containerPort;

/** The process environment of a container: its image's ENV, then the manifest's. */
export function processEnv(deployed: Deployed, overlay: Overlay, entry: Workload): Record<string, string> {
  const container = containerOf(workloadOf(deployed, overlay, entry), entry.container);
  return { ...readDockerfile(entry.dockerfile).env, ...environmentOf(container, deployed.secrets) };
}

/** The gateway's environment with KEYGATE_ROUTES_FILE where the ConfigMap is mounted, read from a local copy. */
export function gatewayEnvWithRoutes(deployed: Deployed, overlay: Overlay): Record<string, string> {
  const deployment = workloadOf(deployed, overlay, WORKLOADS[0]);
  const env = processEnv(deployed, overlay, WORKLOADS[0]);
  const mount = containerOf(deployment, 'gateway').volumeMounts?.find((m) => m.name === 'routes');
  const volume = podTemplateOf(deployment).spec?.volumes?.find((v) => v.name === 'routes');
  assert.equal(env.KEYGATE_ROUTES_FILE, `${mount?.mountPath}/routes.json`);
  const map = find(deployed.rendered[overlay], 'ConfigMap', volume?.configMap?.name ?? '');
  const routesFile = join(deployed.scratchDir, `routes-${overlay}.json`);
  writeFileSync(routesFile, map.data?.['routes.json'] ?? '');
  return { ...env, KEYGATE_ROUTES_FILE: routesFile };
}
