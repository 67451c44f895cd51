import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { JsonSchema } from '../src/index.ts';
import { readCommittedDocument } from './document-file.ts';

async function validate(document: JsonSchema) {
  const validator = new Validator();
  const result = await validator.validate(document);
  return { ...result, version: validator.version };
}

describe('the document against the official OpenAPI 3.1 schema', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(readCommittedDocument());
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(result.version, '3.1');
  });

  it('rejects the document once a response loses its description', async () => {
    const broken = structuredClone(readCommittedDocument()) as {
      paths: Record<string, Record<string, { responses: Record<string, JsonSchema> }>>;
    };
    delete broken.paths['/v2/carts']?.post?.responses['201']?.description;
    assert.equal((await validate(broken)).valid, false);
  });

  it('rejects a header component with both a schema and content', async () => {
    const broken = structuredClone(readCommittedDocument()) as {
      components: { headers: Record<string, JsonSchema> };
    };
    const header = broken.components.headers.RateLimit as JsonSchema;
    header.content = { 'text/plain': { schema: { type: 'string' } } };
    assert.equal((await validate(broken)).valid, false);
  });
});
