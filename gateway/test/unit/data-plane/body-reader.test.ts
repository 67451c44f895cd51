import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import {
  BodyAbortedError,
  bodyDeadlineMs,
  bufferedLengthOf,
  readBody,
} from '../../../src/data-plane/body-reader.ts';
import { GatewayError } from '../../../src/errors.ts';

const LIMITS = { maxBytes: 64 * 1024, timeoutMs: 10_000, minBytesPerSecond: 1024 };

/** A request body stream with the headers the reader looks at. */
function requestOf(headers: Record<string, string>): IncomingMessage & PassThrough {
  const stream = new PassThrough() as PassThrough & { headers: Record<string, string>; complete: boolean };
  stream.headers = headers;
  stream.complete = false;
  stream.on('end', () => {
    stream.complete = true;
  });
  return stream as unknown as IncomingMessage & PassThrough;
}

describe('request bodies read before going upstream', () => {
  describe('bufferedLengthOf', () => {
    it('reads a Content-Length body up to the limit, streams chunked, empty and larger ones', () => {
      assert.equal(bufferedLengthOf(requestOf({ 'content-length': '1000' }), LIMITS.maxBytes), 1000);
      assert.equal(bufferedLengthOf(requestOf({ 'content-length': '0' }), LIMITS.maxBytes), null);
      assert.equal(bufferedLengthOf(requestOf({ 'content-length': '70000' }), LIMITS.maxBytes), null);
      assert.equal(bufferedLengthOf(requestOf({ 'transfer-encoding': 'chunked' }), LIMITS.maxBytes), null);
      assert.equal(bufferedLengthOf(requestOf({}), LIMITS.maxBytes), null);
    });
  });

  describe('bodyDeadlineMs', () => {
    it('allows one second plus the length at the minimum rate, never more than the body timeout', () => {
      assert.equal(bodyDeadlineMs(1024, LIMITS), 2000);
      assert.equal(bodyDeadlineMs(1, LIMITS), 1001);
      assert.equal(bodyDeadlineMs(64 * 1024, LIMITS), 10_000);
    });
  });

  describe('readBody', () => {
    it('resolves the whole body once it arrived', async () => {
      const req = requestOf({ 'content-length': '6' });
      const reading = readBody(req, 6, LIMITS);
      req.write('abc');
      req.end('def');
      assert.equal((await reading).toString(), 'abcdef');
    });

    it('rejects with 408 REQUEST_TIMEOUT when the body is overdue', async () => {
      const req = requestOf({ 'content-length': '1000' });
      const reading = readBody(req, 1000, { ...LIMITS, timeoutMs: 50 });
      req.write('{');
      await assert.rejects(reading, (error: unknown) => {
        assert.ok(error instanceof GatewayError);
        assert.equal(error.code, 'REQUEST_TIMEOUT');
        assert.equal(error.status, 408);
        return true;
      });
    });

    it('rejects with BodyAbortedError when the client goes away first', async () => {
      const req = requestOf({ 'content-length': '1000' });
      const reading = readBody(req, 1000, LIMITS);
      req.destroy();
      await assert.rejects(reading, BodyAbortedError);
    });
  });
});
