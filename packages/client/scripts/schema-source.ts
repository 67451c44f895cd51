import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';

/** The command that regenerates `src/schema.d.ts`; the drift test names it. */
export const GENERATE_COMMAND = 'pnpm --filter @keygate/client generate';

/** The OpenAPI document the client is generated from: packages/openapi/openapi.json. */
export const DOCUMENT_PATH = fileURLToPath(new URL('../../openapi/openapi.json', import.meta.url));

/** The committed generated types. */
export const SCHEMA_PATH = fileURLToPath(new URL('../src/schema.d.ts', import.meta.url));

const HEADER = `${COMMENT_HEADER.trimEnd()}\n// Source: packages/openapi/openapi.json. Regenerate with \`${GENERATE_COMMAND}\`.\n\n`;

/**
 * The TypeScript types (`paths`, `components`, `operations`, `webhooks`) of the OpenAPI document
 * at `documentPath`, as openapi-typescript 7 prints them. Pure: the same document gives the same
 * text byte for byte, so the committed file can be compared with a fresh generation.
 */
export async function generateSchemaSource(documentPath: string = DOCUMENT_PATH): Promise<string> {
  const document = JSON.parse(await readFile(documentPath, 'utf8')) as OpenAPI3;
  // defaultNonNullable (on by default) would make every request member that has a `default` required,
  // e.g. `overlapDays` of RotateKeyRequest; the services fill those in, so a client may leave them out.
  const ast = await openapiTS(document, { silent: true, defaultNonNullable: false });
  return `${HEADER}${astToString(ast).trimEnd()}\n`;
}
