/**
 * The Node flags a commerce process runs with, from the repository root: `pnpm start`
 * (scripts/start.ts), `pnpm bench` and the container's CMD (commerce/Dockerfile) use them; the
 * commerce package's `start` repeats them relative to commerce/ (tests/e2e/compose.test.ts holds
 * the Dockerfile equal). `--import …/drizzle-commonjs.ts`: drizzle-orm loaded as CommonJS, a
 * much smaller resident set for the life of the process (see that file).
 *
 * `--min-semi-space-size=4 --max-semi-space-size=4`: a young generation of one fixed size, as the
 * gateway runs with (gateway/src/node-flags.ts). Answers from the response cache let one process
 * serve several times the requests per second, and left to itself V8 then grows each semi-space
 * to tens of MiB, every page of which stays resident; the memory bound for a 100,000
 * product catalogue is met only with a fixed size. The trade: more frequent minor collections.
 */
export const COMMERCE_NODE_FLAGS: readonly string[] = [
  '--min-semi-space-size=4',
  '--max-semi-space-size=4',
  '--import',
  './commerce/src/drizzle-commonjs.ts',
];
