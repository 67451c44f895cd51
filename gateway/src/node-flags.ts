/**
 * The Node flags a gateway process runs with: `pnpm start`, the container's CMD (gateway/Dockerfile
 * repeats them) and `pnpm bench` pass them. Start `gateway/src/main.ts` yourself with them too.
 *
 * `--min-semi-space-size=16`: a young generation of at least 16 MiB a semi-space. While a gateway
 * idles, V8 shrinks its young generation (from 1 MiB it starts at), and the first seconds of load after
 * that collect it far more often: measured after 100 s idle, 29 to 41 scavenges in the first second
 * against 4 to 5 a second before the pause, and 1.5 to 2 times the main-thread CPU a request; with the
 * floor, 4 to 5 scavenges. The pages are only touched as the young generation fills.
 */
export const GATEWAY_NODE_FLAGS: readonly string[] = ['--min-semi-space-size=16'];
