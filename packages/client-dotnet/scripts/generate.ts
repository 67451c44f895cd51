import { cp, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { GENERATED_DIR, generateToTemp } from './kiota.ts';

// Generates into a temporary directory first, so a failed run leaves the committed code as it was.
const fresh = await generateToTemp();
try {
  await rm(GENERATED_DIR, { recursive: true, force: true });
  await cp(fresh, GENERATED_DIR, { recursive: true });
  console.log(`generated ${GENERATED_DIR}`);
} finally {
  await rm(dirname(fresh), { recursive: true, force: true });
}
