import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { quotedExamples, README_COMMAND, README_PATH, renderReadme } from '../scripts/readme-examples.ts';

describe('README examples', () => {
  it('quotes every file of examples/ verbatim', async () => {
    const readme = await readFile(README_PATH, 'utf8');
    const files = (await readdir(new URL('../examples', import.meta.url))).filter((f) => f.endsWith('.ts'));
    assert.deepEqual(
      [...new Set(quotedExamples(readme))].sort(),
      files.map((file) => `examples/${file}`).sort(),
      'the README quotes each example file',
    );
    assert.ok(
      readme === (await renderReadme(readme)),
      `README examples are stale: run \`${README_COMMAND}\``,
    );
    const lines = readme.split('\n');
    const unquoted = lines.filter(
      (line, i) => line === '```ts' && !lines[i - 1]?.startsWith('<!-- example:'),
    );
    assert.deepEqual(
      unquoted,
      [],
      'every TypeScript block of the README is an example file, so it is typechecked',
    );
  });
});
