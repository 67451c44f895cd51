/**
 * The Node flags a gateway process runs with: `pnpm start` and `pnpm bench` pass them, and the
 * container's CMD (gateway/Dockerfile), `pnpm start:gateway` and the gateway package's `start` repeat
 * them (tests/e2e/start.test.ts holds all of them equal). Start `gateway/src/main.ts` yourself with them too.
 *
 * `--min-semi-space-size=16`: a young generation of at least 16 MiB a semi-space. Node starts it at
 * 1 MiB and grows it under load; while a gateway idles, V8 shrinks it back, and the first seconds of
 * load after that collect it far more often. Measured after 100 s idle, without the floor: 29 to 41
 * scavenges in the first second against 4 to 5 a second before the pause, and 1.6 to 2 times the
 * main-thread CPU a request; with it: 4 to 5 scavenges and 1.2 to 1.6 times (two runs each). The
 * pages are only touched as the young generation fills.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16'];
