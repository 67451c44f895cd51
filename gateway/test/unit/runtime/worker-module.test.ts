import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workerModuleUrl } from '../../../src/runtime/worker-module.ts';

/** Writes `files` (name → TypeScript source) to a new directory and returns its file URL. */
function modules(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), 'keygate-worker-module-'));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  return pathToFileURL(`${dir}/`);
}

/** The first message of a worker started from `url`, or its error. */
function firstMessage(url: URL): Promise<unknown> {
  const worker = new Worker(url);
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

describe('workerModuleUrl', () => {
  it('runs a TypeScript worker with its relative .ts imports and package imports', async () => {
    const dir = modules({
      'entry.ts': [
        "import { parentPort } from 'node:worker_threads';",
        "import ipaddr from 'ipaddr.js';",
        "import { double, type Doubled } from './double.ts';",
        'const answer: Doubled = double(21);',
        'parentPort!.postMessage({ answer, v4: ipaddr.isValid("10.0.0.1") });',
      ].join('\n'),
      'double.ts': [
        'export type Doubled = number;',
        'export function double(n: number): Doubled {',
        '  return n * 2;',
        '}',
      ].join('\n'),
    });
    assert.deepEqual(await firstMessage(workerModuleUrl(new URL('entry.ts', dir))), { answer: 42, v4: true });
  });

  it('keeps the source file and line in a stack trace of the worker', async () => {
    const dir = modules({
      'entry.ts': [
        "import { parentPort } from 'node:worker_threads';",
        'const where: Error = new Error("here");',
        'parentPort!.postMessage(where.stack);',
      ].join('\n'),
    });
    const stack = (await firstMessage(workerModuleUrl(new URL('entry.ts', dir)))) as string;
    assert.match(stack, new RegExp(`${new URL('entry.ts', dir).href}:2:`));
  });

  it('refuses, with the file named, a worker module that imports at run time', () => {
    const dir = modules({ 'entry.ts': "const late = await import('node:os');\nexport { late };\n" });
    assert.throws(
      () => workerModuleUrl(new URL('entry.ts', dir)),
      /entry\.ts: a worker module may use static "from" imports only/,
    );
  });

  it('refuses a relative import of a file that is not TypeScript', () => {
    const dir = modules({ 'entry.ts': "import { x } from './x.js';\nexport { x };\n" });
    assert.throws(
      () => workerModuleUrl(new URL('entry.ts', dir)),
      /imports \.ts modules only, not \.\/x\.js/,
    );
  });
});
