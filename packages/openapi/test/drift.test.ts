import assert from 'node:assert/strict';
import { buildDocument, GENERATE_COMMAND } from '../src/index.ts';
import { readCommittedDocument } from './document-file.ts';

describe('the committed openapi.json', () => {
  it('is exactly what the schemas, error tables and route table build today', () => {
    const committed = readCommittedDocument();
    const fresh = JSON.parse(JSON.stringify(buildDocument()));
    try {
      assert.deepEqual(committed, fresh);
    } catch (error) {
      const detail = error instanceof Error ? error.message.slice(0, 2000) : String(error);
      assert.fail(
        `packages/openapi/openapi.json is out of date: run \`${GENERATE_COMMAND}\` and commit it.\n${detail}`,
      );
    }
  });
});
