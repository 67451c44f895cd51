import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GENERATE_COMMAND, GENERATED_DIR, generateToTemp, listFiles } from '../scripts/kiota.ts';

/** The first line where two texts differ, for a readable failure. */
function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const index = left.findIndex((line, i) => line !== right[i]);
  const at = index === -1 ? left.length : index;
  return `line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}

describe('generated .NET client code', () => {
  let fresh: string;

  before(async () => {
    fresh = await generateToTemp();
  });

  after(async () => {
    if (fresh) await rm(dirname(fresh), { recursive: true, force: true });
  });

  it('has the files Kiota makes of packages/openapi/openapi.json, no more and no fewer', async () => {
    const [committed, generated] = await Promise.all([listFiles(GENERATED_DIR), listFiles(fresh)]);
    const stale = committed.filter((file) => !generated.includes(file));
    const missing = generated.filter((file) => !committed.includes(file));
    assert.deepEqual(
      { stale, missing },
      { stale: [], missing: [] },
      `src/Keygate.Client/Generated is stale: run \`${GENERATE_COMMAND}\` and commit the result`,
    );
  });

  it('has every generated file byte for byte as Kiota makes it', async () => {
    const files = await listFiles(fresh);
    assert.ok(files.length > 100, `Kiota generated only ${files.length} files`);
    for (const file of files) {
      const [committed, generated] = await Promise.all([
        readFile(join(GENERATED_DIR, file), 'utf8').catch(() => ''),
        readFile(join(fresh, file), 'utf8'),
      ]);
      assert.ok(
        committed === generated,
        `src/Keygate.Client/Generated/${file} is stale (${firstDifference(committed, generated)}): ` +
          `run \`${GENERATE_COMMAND}\` and commit the result`,
      );
    }
  });
});
