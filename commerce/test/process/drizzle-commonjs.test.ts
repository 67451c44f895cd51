import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** What `import` resolves drizzle's entry points to in a process started like commerce. */
async function resolveDrizzle(nodeArgs: string[]): Promise<string[]> {
  const script =
    "for (const s of ['drizzle-orm', 'drizzle-orm/sqlite-core', 'drizzle-orm/better-sqlite3/migrator']) " +
    'console.log(import.meta.resolve(s));';
  const { stdout } = await run(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
  });
  return stdout.trim().split('\n');
}

describe('node --import ./src/drizzle-commonjs.ts (how commerce starts)', () => {
  it('loads every drizzle-orm entry point from its CommonJS build', async () => {
    const resolved = await resolveDrizzle(['--import', './src/drizzle-commonjs.ts']);
    assert.equal(resolved.length, 3);
    for (const url of resolved) assert.match(url, /\/drizzle-orm\/.*\.cjs$/, url);
  });

  it('changes nothing without it: the ES module build', async () => {
    const resolved = await resolveDrizzle([]);
    for (const url of resolved) assert.match(url, /\/drizzle-orm\/.*\.js$/, url);
  });
});
