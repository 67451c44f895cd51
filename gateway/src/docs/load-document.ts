import { readFileSync } from 'node:fs';
import { asNode, type Node } from '@keygate/contracts/gateway';

/** Thrown when the configured OpenAPI file cannot be served; its message is one line for the operator. */
export class OpenApiFileError extends Error {
  constructor(file: string, reason: string) {
    super(`KEYGATE_OPENAPI_FILE=${file}: ${reason}`);
    this.name = 'OpenApiFileError';
  }
}

/** Reads and checks the OpenAPI document: a JSON object with `openapi: 3.x`, `info` and `paths` or `webhooks`. */
export function loadOpenApiDocument(file: string): { document: Node; text: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new OpenApiFileError(file, `cannot read the OpenAPI document (${code})`);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new OpenApiFileError(file, 'not valid JSON');
  }
  const node = asNode(document);
  if (typeof node.openapi !== 'string' || !node.openapi.startsWith('3.')) {
    throw new OpenApiFileError(file, 'not an OpenAPI 3.x document (no "openapi": "3.…" member)');
  }
  if (typeof asNode(node.info).title !== 'string' || !(node.paths || node.webhooks)) {
    throw new OpenApiFileError(file, 'an OpenAPI document needs info.title and paths or webhooks');
  }
  return { document: node, text };
}
