import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocument } from './build-document.ts';

/** Where the committed document lives. */
export const DOCUMENT_FILE = fileURLToPath(new URL('../openapi.json', import.meta.url));

/** The command that regenerates DOCUMENT_FILE. */
export const GENERATE_COMMAND = 'pnpm --filter @keygate/openapi build';

/** Writes the freshly built document to DOCUMENT_FILE, formatted as the repository's Biome formats JSON. */
export function writeDocument(): void {
  writeFileSync(DOCUMENT_FILE, `${JSON.stringify(buildDocument(), null, 2)}\n`);
  const biome = fileURLToPath(new URL('../../../node_modules/.bin/biome', import.meta.url));
  execFileSync(biome, ['format', '--write', DOCUMENT_FILE], { stdio: 'ignore' });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeDocument();
  console.log(`wrote ${DOCUMENT_FILE}`);
}
