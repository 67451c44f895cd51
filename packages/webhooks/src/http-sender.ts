import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AttemptResult } from './retry-policy.ts';
import type { ResolvedAddress } from './url-policy.ts';

/** At most this much of a response body is kept with an attempt. */
export const MAX_RESPONSE_BYTES = 1024;

/** One POST of a webhook. */
export interface OutgoingWebhook {
  url: URL;
  /** The checked address to connect to; the URL's host name is still used for Host and TLS. */
  target: ResolvedAddress;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the request (the worker stopping). */
  signal: AbortSignal;
}

/** Sends one webhook request; resolves (never rejects) with what happened. */
export type SendWebhook = (request: OutgoingWebhook) => Promise<AttemptResult>;

/** A lookup that answers only the checked address, so DNS cannot change between check and connect. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}

/** Reads at most MAX_RESPONSE_BYTES of the body, then stops reading. */
async function readLimited(res: IncomingMessage): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of res) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    size += buffer.length;
    if (size > MAX_RESPONSE_BYTES) {
      truncated = true;
      break;
    }
  }
  res.destroy();
  return { text: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'), truncated };
}

/** The attempt's error text: our own deadline reads as the timeout it was, anything else as is. */
function failureReason(error: Error, timeoutMs: number): string {
  return error.message === 'timeout' ? `timeout after ${timeoutMs} ms` : error.message;
}

/** The webhook sender over node:http(s): no redirects followed, one overall deadline, body ≤ 1 KiB kept. */
export const sendWebhookOverHttp: SendWebhook = (outgoing) => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): AttemptResult => ({
    statusCode: null,
    durationMs: elapsed(),
    response: null,
    responseTruncated: false,
    retryAfter: null,
    error,
  });
  return new Promise<AttemptResult>((resolve) => {
    const send = outgoing.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(outgoing.url, {
      method: 'POST',
      headers: { ...outgoing.headers, 'content-length': String(Buffer.byteLength(outgoing.body)) },
      lookup: pinnedLookup(outgoing.target),
      signal: outgoing.signal,
      agent: false,
    });
    const deadline = setTimeout(() => req.destroy(new Error('timeout')), outgoing.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(deadline);
      resolve(failed(outgoing.signal.aborted ? 'aborted' : failureReason(error, outgoing.timeoutMs)));
    });
    req.on('response', (res) => {
      readLimited(res).then(
        ({ text, truncated }) => {
          clearTimeout(deadline);
          const retryAfter = res.headers['retry-after'];
          resolve({
            statusCode: res.statusCode ?? null,
            durationMs: elapsed(),
            response: text,
            responseTruncated: truncated,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            error: null,
          });
        },
        (error: Error) => {
          clearTimeout(deadline);
          resolve(failed(failureReason(error, outgoing.timeoutMs)));
        },
      );
    });
    req.end(outgoing.body);
  });
};
