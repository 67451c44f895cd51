import { readFileSync } from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The URL to start a worker thread from for the TypeScript module `entry`: the module and the
 * TypeScript modules it imports, with their types stripped by this thread, as `data:` URLs.
 *
 * Why: a thread that loads a `.ts` file loads a copy of Node's type stripper of its own, and that
 * copy holds more resident memory than everything else a small worker needs. The main thread has
 * the stripper loaded anyway (the gateway runs from its TypeScript sources), so it strips the few
 * modules a worker runs, once per process, and the worker loads JavaScript only.
 *
 * A `data:` module cannot import relative paths or packages, so each relative `.ts` import becomes
 * the `data:` URL of that module in turn, and each package import the `file:` URL it resolves to
 * from here (the worker modules live in this package and share its dependencies). Stripping only
 * replaces types by spaces, so a stack trace's lines and columns are the source file's; each module
 * ends with a `sourceURL` naming its file.
 */
export function workerModuleUrl(entry: URL): URL {
  let url = cache.get(entry.href);
  if (url === undefined) {
    url = new URL(dataUrlOf(entry, []));
    cache.set(entry.href, url);
  }
  return url;
}

const cache = new Map<string, URL>();

/** A module's own import forms this understands: static `from '…'` imports and re-exports. */
const FROM = /\bfrom\s*(['"])([^'"]+)\1/g;
/** What a `data:` module could not do as its file did: resolve relative to its own URL at run time. */
const UNSUPPORTED = /\bimport\s*\(|\bimport\.meta\b|^\s*import\s*['"]/m;

function dataUrlOf(file: URL, importers: string[]): string {
  if (importers.includes(file.href)) {
    throw new Error(`worker module import cycle: ${[...importers, file.href].join(' -> ')}`);
  }
  const code = strip(readFileSync(fileURLToPath(file), 'utf8'));
  if (UNSUPPORTED.test(code)) {
    throw new Error(`${file.href}: a worker module may use static "from" imports only`);
  }
  const linked = code.replace(FROM, (_, _quote: string, specifier: string) => {
    return `from ${JSON.stringify(resolveFor(file, specifier, [...importers, file.href]))}`;
  });
  return `data:text/javascript,${encodeURIComponent(`${linked}\n//# sourceURL=${file.href}\n`)}`;
}

function resolveFor(importer: URL, specifier: string, importers: string[]): string {
  if (specifier.startsWith('node:')) return specifier;
  if (specifier.startsWith('./') || specifier.startsWith('../')) {
    const target = new URL(specifier, importer);
    if (!target.pathname.endsWith('.ts')) {
      throw new Error(`${importer.href}: a worker module imports .ts modules only, not ${specifier}`);
    }
    return dataUrlOf(target, importers);
  }
  return import.meta.resolve(specifier);
}

/**
 * Node warns once per process that `stripTypeScriptTypes` is experimental; an operator can do
 * nothing about it, so that one warning is held back while it runs (synchronously: nothing else can
 * emit a warning in between).
 */
function strip(source: string): string {
  const { emitWarning } = process;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('stripTypeScriptTypes')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return stripTypeScriptTypes(source, { mode: 'strip' });
  } finally {
    process.emitWarning = emitWarning;
  }
}
