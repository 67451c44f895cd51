import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = join(ROOT, 'packages');
/** The workspace's applications: everything it builds outside packages/. */
const APPLICATION_DIRS = ['gateway', 'commerce', 'bench', 'tests'];
const APPLICATIONS = APPLICATION_DIRS.map(
  (dir) => (JSON.parse(readFileSync(join(ROOT, dir, 'package.json'), 'utf8')) as { name: string }).name,
);
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.tsbuild', '.next', 'vendor', 'bin', 'obj']);
const SOURCE = /\.(?:[cm]?[jt]sx?)$/;
/** Static imports, export-from, side-effect imports, dynamic import() and require(). */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listSources(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each specifier in `text` (a file at `file`) that reaches an application, by name or by path. */
function applicationImportsOf(file: string, text: string): string[] {
  return [...text.matchAll(SPECIFIER)]
    .map((match) => match[2] as string)
    .filter((specifier) => {
      if (specifier.startsWith('.')) {
        const target = relative(ROOT, resolve(dirname(file), specifier));
        return APPLICATION_DIRS.some((dir) => target === dir || target.startsWith(dir + sep));
      }
      return APPLICATIONS.some((name) => specifier === name || specifier.startsWith(`${name}/`));
    });
}

describe('packages/*', () => {
  const packageDirs = readdirSync(PACKAGES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(PACKAGES, entry.name));

  it('declare no application (gateway, commerce, bench, tests) as a dependency', () => {
    const declared = packageDirs.flatMap((dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
      const names = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
        (field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}),
      );
      return names
        .filter((name) => APPLICATIONS.includes(name))
        .map((name) => `${relative(ROOT, dir)}: ${name}`);
    });
    assert.deepEqual(declared, []);
  });

  it('import no application, by package name or by relative path', () => {
    const found = packageDirs
      .flatMap(listSources)
      .flatMap((file) =>
        applicationImportsOf(file, readFileSync(file, 'utf8')).map(
          (specifier) => `${relative(ROOT, file)}: ${specifier}`,
        ),
      );
    assert.deepEqual(found, []);
  });

  it('are caught importing an application, by name or by path', () => {
    const file = join(PACKAGES, 'openapi', 'src', 'example.ts');
    // Quoted through `q` so that this file's own text holds no such import.
    const q = "'";
    const text = [
      `import { ERRORS } from ${q}@keygate/gateway/api-schemas${q};`,
      `import type { X } from ${q}../../../commerce/src/errors.ts${q};`,
      `export { y } from ${q}@keygate/contracts/gateway${q};`,
      `const z = await import(${q}../../identity/src/index.ts${q});`,
    ].join('\n');
    assert.deepEqual(applicationImportsOf(file, text), [
      '@keygate/gateway/api-schemas',
      '../../../commerce/src/errors.ts',
    ]);
  });
});
