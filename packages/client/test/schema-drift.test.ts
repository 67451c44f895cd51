import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { GENERATE_COMMAND, generateSchemaSource, SCHEMA_PATH } from '../scripts/schema-source.ts';

/** The first line where two texts differ, for a readable failure. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  const at = index === -1 ? left.length : index;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}

describe('generated types', () => {
  it('src/schema.d.ts is what the generator makes of packages/openapi/openapi.json', async function () {
    this.timeout(30_000);
    const [committed, fresh] = await Promise.all([readFile(SCHEMA_PATH, 'utf8'), generateSchemaSource()]);
    assert.ok(
      committed === fresh,
      `packages/client/src/schema.d.ts is stale (${firstDifference(committed, fresh)}): ` +
        `run \`${GENERATE_COMMAND}\` and commit the result`,
    );
  });
});
