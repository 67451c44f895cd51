import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** The command that copies the example files into the README; the README test names it. */
export const README_COMMAND = 'pnpm --filter @keygate/client readme';

export const README_PATH = fileURLToPath(new URL('../README.md', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** `<!-- example: examples/x.ts -->` then a ```ts block: the block quotes that file verbatim. */
const BLOCK = /<!-- example: (examples\/[\w.-]+\.ts) -->\n```ts\n[\s\S]*?```/g;

/** The README with every marked example block replaced by the current text of its file. */
export async function renderReadme(readme: string): Promise<string> {
  const files = [...readme.matchAll(BLOCK)].map((match) => match[1] as string);
  const texts = new Map<string, string>();
  for (const file of files) texts.set(file, await readFile(PACKAGE_DIR + file, 'utf8'));
  return readme.replace(BLOCK, (_block, file: string) => {
    const text = texts.get(file) as string;
    return `<!-- example: ${file} -->\n\`\`\`ts\n${text.endsWith('\n') ? text : `${text}\n`}\`\`\``;
  });
}

/** The example files the README quotes. */
export function quotedExamples(readme: string): string[] {
  return [...readme.matchAll(BLOCK)].map((match) => match[1] as string);
}
