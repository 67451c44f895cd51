/**
 * The Node flags a commerce process runs with, from the repository root: `pnpm start`
 * (scripts/start.ts), `pnpm bench` and the container's CMD (commerce/Dockerfile) use them; the
 * commerce package's `start` repeats them relative to commerce/ (tests/e2e/compose.test.ts holds
 * the Dockerfile equal). `--import …/drizzle-commonjs.ts`: drizzle-orm loaded as CommonJS, a
 * much smaller resident set for the life of the process (see that file).
 */
export const COMMERCE_NODE_FLAGS: readonly string[] = ['--import', './commerce/src/drizzle-commonjs.ts'];
