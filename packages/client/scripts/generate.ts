import { readFile, writeFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { DOCUMENT_PATH, generateSchemaSource, SCHEMA_PATH } from './schema-source.ts';

/** Regenerates src/schema.d.ts from the OpenAPI document (or the path given as first argument). */
async function writeSchema(documentPath: string): Promise<void> {
  const source = await generateSchemaSource(documentPath);
  const current = await readFile(SCHEMA_PATH, 'utf8').catch(() => '');
  const target = relative(process.cwd(), SCHEMA_PATH);
  if (current === source) {
    console.log(`${target} is up to date`);
    return;
  }
  await writeFile(SCHEMA_PATH, source);
  console.log(`wrote ${target} from ${relative(process.cwd(), documentPath)}`);
}

await writeSchema(process.argv[2] ?? DOCUMENT_PATH);
