import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCHEMAS_DIR = fileURLToPath(new URL('../src/schemas/', import.meta.url));

describe('the response schemas under src/schemas', () => {
  it('give every exported …Schema constant a doc comment', () => {
    const undocumented = readdirSync(SCHEMAS_DIR)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => {
        const lines = readFileSync(SCHEMAS_DIR + file, 'utf8').split('\n');
        return lines
          .map((line, index) => ({ line, previous: lines[index - 1] ?? '' }))
          .filter(
            ({ line, previous }) => /^export const \w+Schema\b/.test(line) && !previous.trim().endsWith('*/'),
          )
          .map(({ line }) => `${file}: ${line.slice(0, 60)}`);
      });
    assert.deepEqual(undocumented, []);
  });
});
