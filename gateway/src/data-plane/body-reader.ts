import type { IncomingMessage } from 'node:http';
import { GatewayError } from '../errors.ts';

/** Limits on a request body read in full before it goes upstream. */
export interface BodyLimits {
  /** Bodies with a Content-Length up to this many bytes are read first; larger or chunked ones are streamed. */
  maxBytes: number;
  /** The body must arrive within this long at most (ms). */
  timeoutMs: number;
  /** ... and within one second plus its length at this rate, whichever is sooner. */
  minBytesPerSecond: number;
}

/**
 * The body's length when it is to be read in full before an upstream connection is taken: a
 * Content-Length above 0 and at most `maxBytes`, without Transfer-Encoding. Null otherwise.
 */
export function bufferedLengthOf(req: IncomingMessage, maxBytes: number): number | null {
  const { headers } = req;
  if (headers['transfer-encoding'] !== undefined) return null;
  const length = Number(headers['content-length']);
  return length > 0 && length <= maxBytes ? length : null;
}

/** How long a body of `length` bytes may take to arrive: one second plus its length at the minimum rate, capped. */
export function bodyDeadlineMs(length: number, limits: BodyLimits): number {
  return Math.min(limits.timeoutMs, 1000 + Math.ceil((length / limits.minBytesPerSecond) * 1000));
}

/** The client went away (or its connection broke) before its body arrived. */
export class BodyAbortedError extends Error {}

/**
 * Reads a body of `length` bytes in full. Rejects with 408 REQUEST_TIMEOUT when it is overdue
 * (`bodyDeadlineMs`), or BodyAbortedError when the client's connection ends first.
 *
 * Why read first: a body streamed on holds an upstream connection for as long as the client takes
 * to send it, and the pool is shared by every key; one key trickling bodies a byte a second held
 * them all. Read first, a slow body holds only its own socket (and a slot of its key's
 * concurrency cap), and the upstream connection is taken only for a request that is complete.
 */
export function readBody(req: IncomingMessage, length: number, limits: BodyLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error: Error | null) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => finish(null);
    const onAborted = () => finish(new BodyAbortedError('the client closed the connection'));
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    const timer = setTimeout(
      () =>
        finish(
          new GatewayError(
            'REQUEST_TIMEOUT',
            `The request body (${length} bytes) did not arrive in time; send it at once.`,
          ),
        ),
      bodyDeadlineMs(length, limits),
    );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onClose);
  });
}
