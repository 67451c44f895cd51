import { readFile, writeFile } from 'node:fs/promises';
import { README_PATH, renderReadme } from './readme-examples.ts';

/** Copies every quoted example file into its README block. */
async function syncReadme(): Promise<void> {
  const readme = await readFile(README_PATH, 'utf8');
  const rendered = await renderReadme(readme);
  if (rendered === readme) {
    console.log('README.md examples are up to date');
    return;
  }
  await writeFile(README_PATH, rendered);
  console.log('README.md examples updated from examples/*.ts');
}

await syncReadme();
