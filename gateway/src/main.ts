import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics } from 'prom-client';
import { type GatewayConfig, loadConfig } from './config.ts';
import { createLogger, createStdoutDestination } from './http/logger.ts';
import { startSweeper } from './keys/sweeper.ts';
import { type OpenedGateway, openGateway } from './open-gateway.ts';
import { SHUTDOWN_OVERRUN_MS } from './ops/shutdown-deadline.ts';
import { releaseStartupGarbage } from './runtime/heap.ts';
import { describeRedisTarget } from './store/redis/target.ts';

/** While shutting down, connections that went idle are closed this often. */
const IDLE_SWEEP_MS = 100;

function fail(line: string): never {
  console.error(line);
  process.exit(1);
}

function readConfig(): Readonly<GatewayConfig> {
  try {
    return loadConfig(process.env);
  } catch (error) {
    fail(`config error: ${(error as Error).message}`);
  }
}

/**
 * Stops accepting connections, lets in-flight requests finish (cutting what is left after the
 * grace period), then flushes usage and closes the store (and Redis connections).
 */
async function shutDown(server: Server, opened: OpenedGateway, graceMs: number) {
  const idleSweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const force = setTimeout(() => server.closeAllConnections(), graceMs);
  force.unref();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  clearInterval(idleSweep);
  clearTimeout(force);
  await opened.close();
}

/** Said at start and once listening, at warn level so it shows at any usual log level. */
const POLICIES_OFF_WARNING =
  '!!! KEYGATE_POLICIES=off (KEYGATE_BENCH_MODE=1): BENCHMARKING MODE. No API key is checked, no rate ' +
  'limit applies, no usage is recorded: anyone reaching this port reaches the upstreams. Never run this ' +
  'in production !!!';

const API_LOG_OFF_WARNING =
  'KEYGATE_API_LOG=off (KEYGATE_BENCH_MODE=1): benchmarking mode, calls are checked and counted but ' +
  'no API log line is kept';

/** Exit status for a signal, as a shell reports it (128 + its number). */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143 } as const;

async function main(): Promise<void> {
  const config = readConfig();
  const destination = createStdoutDestination();
  const logger = createLogger(config.logLevel, destination);
  /** Set once the gateway is built: hands over the access lines it still holds. */
  let flushAccessLog: (() => void) | undefined;
  /** Writes out the buffered log lines now; a stalled stdout must not hold up the exit. */
  const flushLog = () => {
    try {
      flushAccessLog?.();
      destination.flushSync();
    } catch {}
  };
  process.on('uncaughtException', (error) => {
    logger.fatal({ err: error }, 'uncaught exception: exiting');
    flushLog();
    process.exit(1);
  });
  // Installed before anything slow (a Redis connect can take seconds): until the gateway serves, a
  // signal just ends the process, and the lines logged so far are written out first.
  let onSignal: (signal: keyof typeof SIGNAL_EXIT) => void = (signal) => {
    logger.info({ signal }, 'stopped before the gateway was ready');
    flushLog();
    process.exit(SIGNAL_EXIT[signal]);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  if (config.policies === 'off') logger.warn({ policies: 'off' }, POLICIES_OFF_WARNING);
  if (config.apiLog === 'off') logger.warn({ apiLog: 'off' }, API_LOG_OFF_WARNING);
  const offset = config.testClockOffsetMs;
  const opened = await openGateway(
    config,
    offset === 0 ? { logger } : { logger, clock: () => Date.now() + offset },
  );
  const { keyService, gateway } = opened;
  flushAccessLog = gateway.flushAccessLog;
  collectDefaultMetrics({ register: gateway.metrics.registry });
  gateway.recorder.start();
  const stopSweeper = startSweeper({
    sweep: () => keyService.sweep(),
    intervalMs: config.sweepIntervalMs,
    onError: (error) => logger.error({ err: error }, 'key sweep failed'),
  });

  releaseStartupGarbage();
  const server = gateway.app.listen(config.port, config.host);
  // Idle keep-alive connections outlive the load balancer's own idle timeout, so the balancer never
  // reuses a socket the gateway is closing; headers must arrive within a slightly longer bound.
  server.keepAliveTimeout = config.keepAliveTimeoutMs;
  server.headersTimeout = config.keepAliveTimeoutMs + 1000;
  // A request must arrive in full within this bound (node's own default is 300 s): a body trickled
  // a byte a second would otherwise hold its socket, and a streamed body its upstream connection,
  // for five minutes. Bodies read before going upstream have their own, tighter deadline.
  server.requestTimeout = config.requestTimeoutMs;
  server.on('error', (error) =>
    fail(`gateway error: cannot listen on ${config.host}:${config.port} (${error.message})`),
  );
  server.on('listening', () => {
    const { port } = server.address() as AddressInfo;
    const store = config.redisUrl
      ? `redis ${describeRedisTarget(config.redisUrl)} (prefix ${config.redisPrefix})`
      : config.databaseFile;
    logger.info(
      { store, nodeFlags: process.execArgv },
      `keygate gateway listening on http://${config.host}:${port}`,
    );
    if (config.policies === 'off') logger.warn({ policies: 'off' }, POLICIES_OFF_WARNING);
  });

  let stopping = false;
  const shutdown = async (signal: keyof typeof SIGNAL_EXIT) => {
    if (stopping) {
      // A second signal: the operator does not want to wait for in-flight work.
      logger.warn({ signal }, 'second signal: exiting now');
      flushLog();
      process.exit(SIGNAL_EXIT[signal]);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    setTimeout(() => {
      logger.error({ overrunMs: SHUTDOWN_OVERRUN_MS }, 'shutdown did not finish in time: exiting');
      flushLog();
      process.exit(1);
    }, config.shutdownGraceMs + SHUTDOWN_OVERRUN_MS).unref();
    stopSweeper();
    try {
      await shutDown(server, opened, config.shutdownGraceMs);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('stopped');
    flushLog();
    process.exit(0);
  };
  onSignal = (signal) => void shutdown(signal);
}

await main().catch((error: unknown) => fail(`gateway error: ${(error as Error).message}`));
