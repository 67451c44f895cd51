import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { createStdoutDestination, type StdoutDestination } from '../../src/http/stdout-destination.ts';

/** A write error as fs.writeSync throws it. */
function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: write`), { code, syscall: 'write' });
}

/**
 * The exit flush (pino calls `flushSync` from the process's `exit` event) when stdout fails. A
 * temp file stands in for stdout; fs.writeSync is replaced to fail the way a pipe does.
 */
describe('commerce stdout log destination: the exit flush', () => {
  const writeSync = fs.writeSync;
  let dir: string;
  let file: string;
  let fd: number;
  let destination: StdoutDestination;
  beforeEach(() => {
    dir = fs.mkdtempSync(join(tmpdir(), 'commerce-log-'));
    file = join(dir, 'out.log');
    fd = fs.openSync(file, 'w');
    destination = createStdoutDestination(fd);
  });
  afterEach(async () => {
    fs.writeSync = writeSync;
    // The asynchronous write of the first line lands (it never goes through fs.writeSync).
    assert.ok(await fileShows('in flight'));
    destination.end();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Whether the file shows the line `msg` within a second. */
  async function fileShows(msg: string): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      if (fs.readFileSync(file, 'utf8').includes(`"msg":"${msg}"`)) return true;
      await sleep(10);
    }
    return false;
  }

  /**
   * Logs a line that goes out asynchronously (fs.write in the thread pool), then two that wait
   * behind it for the exit flush: the state of a commerce that logs "stopped" and exits at once.
   */
  function logWithOneWriteInFlight(): void {
    const logger = pino({ base: null }, destination);
    logger.info('in flight');
    logger.info('shutting down');
    logger.info('stopped');
  }

  /** Replaces fs.writeSync for `fd` with `fail` (called with the attempt number); counts attempts. */
  function failWrites(fail: (attempt: number) => NodeJS.ErrnoException | null): () => number {
    let attempts = 0;
    fs.writeSync = ((target: number, ...rest: unknown[]) => {
      if (target === fd) {
        attempts++;
        const error = fail(attempts);
        if (error) throw error;
      }
      return (writeSync as (...args: unknown[]) => number)(target, ...rest);
    }) as typeof fs.writeSync;
    return () => attempts;
  }

  it('writes the waiting lines when stdout takes them', async () => {
    logWithOneWriteInFlight();
    destination.flushSync();
    assert.ok(await fileShows('shutting down'));
    assert.ok(await fileShows('stopped'));
  });

  it('drops the waiting lines at the first EPIPE instead of retrying them (the reader has gone)', () => {
    logWithOneWriteInFlight();
    // sonic-boom alone would retry every 100 ms for as long as the write fails: forever on a pipe
    // whose reader has gone. Here the write would succeed from the third attempt, so a retry shows.
    const attempts = failWrites((attempt) => (attempt <= 2 ? errno('EPIPE') : null));
    destination.flushSync();
    assert.equal(attempts(), 1);
    fs.writeSync = writeSync;
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /"msg":"stopped"/);
  });

  it('retries EAGAIN (a full pipe) for a bounded time, then drops the waiting lines', () => {
    logWithOneWriteInFlight();
    // A reader that stopped reading: EAGAIN for far longer than the bound. sonic-boom alone would
    // retry until the 60th attempt (about 6 s) and write the lines then.
    const attempts = failWrites((attempt) => (attempt < 60 ? errno('EAGAIN') : null));
    destination.flushSync();
    assert.ok(attempts() > 1, 'EAGAIN is retried');
    assert.ok(attempts() < 60, `gave up before the pipe drained (${attempts()} attempts)`);
    fs.writeSync = writeSync;
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /"msg":"stopped"/);
  });
});
