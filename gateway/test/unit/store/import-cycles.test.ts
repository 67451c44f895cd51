import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../../src/', import.meta.url));
const STORE = join(SRC, 'store');

/** Relative specifiers in import, export-from, dynamic import() and new URL(…, import.meta.url). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

function listSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name));
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIER)].map((match) => resolve(dirname(file), match[2] as string));
}

/** Each import cycle in `graph` (a strongly connected component), found by Tarjan's algorithm. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('gateway/src/store imports', () => {
  it('form no cycle, even through modules outside store/', () => {
    const graph = new Map(listSources(SRC).map((file) => [file, importsOf(file)]));
    const throughStore = findCycles(graph)
      .filter((cycle) => cycle.some((file) => file.startsWith(STORE)))
      .map((cycle) => cycle.map((file) => relative(SRC, file)).sort());
    assert.deepEqual(throughStore, []);
  });

  it('leave no cycle between the folders of gateway/src: every arrow between them points down', () => {
    // The files at the top of src/ (main.ts, app.ts, config.ts, errors.ts) wire or serve every folder.
    const folderOf = (file: string) => relative(SRC, file).split('/').slice(0, -1)[0];
    const folders = new Map<string, Set<string>>();
    for (const file of listSources(SRC)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      const edges = folders.get(from) ?? new Set<string>();
      folders.set(from, edges);
      for (const target of importsOf(file)) {
        const to = folderOf(target);
        if (to !== undefined && to !== from) edges.add(to);
      }
    }
    const graph = new Map([...folders].map(([folder, edges]) => [folder, [...edges]]));
    assert.deepEqual(
      findCycles(graph).map((cycle) => cycle.sort()),
      [],
    );
  });

  it('are found by the cycle check when two modules import each other', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'a.ts']],
      ['c.ts', []],
    ]);
    assert.deepEqual(
      findCycles(graph).map((cycle) => cycle.sort()),
      [['a.ts', 'b.ts']],
    );
  });
});
