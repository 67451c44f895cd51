import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger, createStdoutDestination } from '../../../src/http/logger.ts';

describe('stdout log destination', () => {
  const fsync = fs.fsync;
  let dir: string;
  afterEach(() => {
    fs.fsync = fsync;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes a buffered line out on its own within the flush period, never calling fsync', async () => {
    let fsyncs = 0;
    fs.fsync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
      fsyncs++;
      fsync(fd, callback);
    }) as typeof fs.fsync;
    dir = fs.mkdtempSync(join(tmpdir(), 'keygate-log-'));
    const file = join(dir, 'out.log');
    const fd = fs.openSync(file, 'w');
    const destination = createStdoutDestination(fd) as unknown as { flushSync(): void; end(): void };
    createLogger('info', destination as never).info('only line');
    for (let i = 0; i < 100 && !fs.readFileSync(file, 'utf8').includes('only line'); i++) await sleep(20);
    assert.match(fs.readFileSync(file, 'utf8'), /"msg":"only line"/);
    // Two more flush periods: each must stay a plain write.
    await sleep(450);
    assert.equal(fsyncs, 0);
    destination.end();
  });
});
