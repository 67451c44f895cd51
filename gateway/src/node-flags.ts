/**
 * The Node flags a gateway process runs with: `pnpm start` and `pnpm bench` pass them, and the
 * container's CMD (gateway/Dockerfile), `pnpm start:gateway` and the gateway package's `start` repeat
 * them (tests/e2e/start.test.ts holds all of them equal). Start `gateway/src/main.ts` yourself with them too.
 *
 * `--min-semi-space-size=4 --max-semi-space-size=4`: a young generation of one fixed size. Left to
 * itself V8 grows it to tens of MiB a semi-space under load (and while the modules load), and every
 * page it grew to stays resident; it also shrinks it while a gateway idles, and the first seconds of
 * load after that collect it far more often. A fixed size has neither cost. The trade: a small young
 * generation is collected more often under load than a large one (docs/operations.md#memory has the
 * measured pauses per request).
 *
 * `--max-old-space-size=256`: V8 lets the old generation grow in larger steps before collecting
 * the larger its limit is; with the limit sized to the gateway (the key cache full at
 * KEYGATE_CACHE_MAX_ENTRIES included) it grows in small steps, and a leak ends the process in a
 * clear out-of-memory error rather than a container's silent kill.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = [
  '--min-semi-space-size=4',
  '--max-semi-space-size=4',
  '--max-old-space-size=256',
];

/**
 * glibc's allocator settings for a gateway process (the container image sets them; the bench too).
 * Every thread that allocates would get an arena of its own, and argon2's memory (19 MiB a
 * verification, on the thread pool) would stay in one once glibc's adaptive threshold had moved
 * above it: two arenas, and large blocks always mapped and unmapped, give that memory back.
 */
export const GATEWAY_MALLOC_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/**
 * The memory limit of a gateway container (docker-compose.yml's `mem_limit`, in MiB): what an
 * instance measured under the bench's load with 100,000 keys, plus room for the old generation to
 * grow to its limit (above) while the key cache fills, so V8 reaches its own limit before the kernel
 * kills the container. docs/operations.md#memory says what grows an instance.
 */
export const GATEWAY_MEMORY_LIMIT_MIB = 384;
