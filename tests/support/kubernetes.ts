import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { parseAllDocuments } from 'yaml';
import { ROOT } from './processes.ts';

const run = promisify(execFile);

export const KUBERNETES_DIR = resolve(ROOT, 'deploy/kubernetes');
export const OVERLAYS = ['single', 'redis'] as const;
export type Overlay = (typeof OVERLAYS)[number];

/** A rendered object: what `kubectl apply` would send. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: each test narrows spec to the kind's model type.
  spec?: any;
  data?: Record<string, string>;
}

/** `kubectl kustomize dir`, parsed; a missing kubectl fails (never skips), in CI and out. */
export async function renderKustomization(dir: string): Promise<KubeObject[]> {
  const output = await run('kubectl', ['kustomize', dir], { maxBuffer: 16 * 1024 * 1024 }).catch(
    (error: NodeJS.ErrnoException & { stderr?: string }) => {
      const where = process.env.CI === 'true' ? 'CI must install it' : 'install it to run this test';
      return assert.fail(
        error.code === 'ENOENT'
          ? `kubectl is not on the PATH (Debian: apt-get install kubectl); ${where}`
          : `kubectl kustomize ${dir} failed: ${error.stderr ?? error.message}`,
      );
    },
  );
  return parseAllDocuments(output.stdout).map((document) => document.toJSON() as KubeObject);
}

/** Renders an overlay with extra components, as an operator's own overlay would list them. */
export async function renderWithComponents(overlay: Overlay, components: string[]): Promise<KubeObject[]> {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-kustomize-'));
  try {
    // kustomize refuses absolute paths: the operator's overlay names ours relative to itself.
    const from = (path: string) => relative(dir, resolve(KUBERNETES_DIR, path));
    const lines = [
      'resources:',
      `  - ${from(`overlays/${overlay}`)}`,
      'components:',
      ...components.map((component) => `  - ${from(`components/${component}`)}`),
    ];
    writeFileSync(join(dir, 'kustomization.yaml'), `${lines.join('\n')}\n`);
    return await renderKustomization(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Throws with the schema's own message when `object` is not a valid object of its kind. */
export async function validateAgainstSchema(object: KubeObject): Promise<void> {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : [undefined, object.apiVersion];
  // The schemas ship compiled inside the npm packages: nothing is fetched while validating.
  const module =
    group === 'monitoring.coreos.com'
      ? `@kubernetes-models/prometheus-operator/${group}/${version}/${object.kind}`
      : `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
  const models = (await import(module)) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = models[object.kind];
  assert.ok(Model, `${module} has no model ${object.kind}`);
  new Model(object).validate();
}

/** The one object of `kind` named `name`. */
export function find(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.filter((object) => object.kind === kind && object.metadata.name === name);
  assert.equal(found.length, 1, `expected one ${kind} ${name}, found ${found.length}`);
  return found[0] as KubeObject;
}

export const podTemplateOf = (object: KubeObject) => object.spec.template as IPodTemplateSpec;

export function containerOf(object: KubeObject, name: string): IContainer {
  const container = podTemplateOf(object).spec?.containers.find((candidate) => candidate.name === name);
  assert.ok(container, `${object.kind} ${object.metadata.name} has no container ${name}`);
  return container;
}

/** A container's environment, Secret references resolved from `secrets` (name → key → value). */
export function environmentOf(
  container: IContainer,
  secrets: Record<string, Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    const ref = variable.valueFrom?.secretKeyRef;
    if (ref) {
      const value = secrets[ref.name ?? '']?.[ref.key];
      assert.ok(value !== undefined, `${variable.name}: the Secret ${ref.name} has no key ${ref.key}`);
      env[variable.name] = value;
    } else {
      assert.ok(variable.valueFrom === undefined, `${variable.name}: only Secret references are expected`);
      env[variable.name] = variable.value ?? '';
    }
  }
  return env;
}

/** What the runtime stage of a Dockerfile declares, and the image name its build comment gives. */
export interface DockerfileFacts {
  image: string;
  env: Record<string, string>;
  exposed: number[];
  user: string;
}

export function readDockerfile(path: string): DockerfileFacts {
  const text = readFileSync(resolve(ROOT, path), 'utf8');
  const image = new RegExp(`docker build -f ${path} -t (\\S+) `).exec(text)?.[1];
  assert.ok(image, `${path} names no image in its build comment`);
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const instructions = runtime.replace(/\\\n/g, ' ').split('\n');
  const env: Record<string, string> = {};
  const exposed: number[] = [];
  let user = 'root';
  for (const line of instructions) {
    const [instruction, ...rest] = line.trim().split(/\s+/);
    if (instruction === 'ENV')
      for (const pair of rest) {
        const [name, ...value] = pair.split('=');
        env[name as string] = value.join('=');
      }
    if (instruction === 'EXPOSE') exposed.push(...rest.map((port) => Number.parseInt(port, 10)));
    if (instruction === 'USER') user = rest[0] as string;
  }
  return { image, env, exposed, user };
}
