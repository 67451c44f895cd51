import { readFileSync } from 'node:fs';
import type { JsonSchema } from '../src/index.ts';
import { DOCUMENT_FILE } from '../src/index.ts';

/** The committed document, parsed. */
export function readCommittedDocument(): JsonSchema {
  return JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as JsonSchema;
}

/** Every operation of a document's `paths` as `METHOD /path` with its operation object. */
export function operationsOf(document: JsonSchema): Array<{ key: string; operation: JsonSchema }> {
  const paths = document.paths as Record<string, Record<string, JsonSchema>>;
  return Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${path}`,
      operation,
    })),
  );
}
