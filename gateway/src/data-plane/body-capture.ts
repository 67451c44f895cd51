import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { redactTokens } from '../keys/token.ts';
import { type LoggedBodies, type LoggedBody, MAX_LOGGED_BODY_BYTES } from '../model/model.ts';

/** What a body capture holds until the call is recorded. */
export interface BodyCapture {
  /** The bodies as an API log line keeps them: JSON or text, at most 16 KiB each, secrets redacted. */
  finish(): LoggedBodies;
}

/** A bearer header as parseBearer reads it that names a test key (`kg_test_…`): only such calls may keep bodies. */
const TEST_BEARER = /^bearer +kg_test_/i;

/**
 * Whether a call's bearer names a test key, asked of every request before its body is read: one
 * `includes` for the usual live or test header, the pattern only when the header names a test key.
 */
export function isTestBearer(authorization: string | undefined): boolean {
  return authorization?.includes('kg_test_') === true && TEST_BEARER.test(authorization);
}

/** JSON (`application/json`, `…+json`) and text (`text/…`) bodies are kept; anything else is not. */
function isLoggable(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json');
}

/** A secret-looking value in JSON: `"secret": "…"` (key creation, rotation, webhook endpoints). */
const SECRET_MEMBER = /("secret"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
/** A webhook signing secret anywhere in the text. */
const WEBHOOK_SECRET = /whsec_[A-Za-z0-9+/=]+/g;

/**
 * A body's text with every secret replaced: `secret` members (the one-time answer of a key creation
 * or rotation, a webhook endpoint's `whsec_`), webhook secrets and keygate tokens anywhere.
 */
export function redactBody(text: string): string {
  return redactTokens(text)
    .replace(SECRET_MEMBER, '$1"[redacted]"')
    .replace(WEBHOOK_SECRET, 'whsec_[redacted]');
}

/** Collects up to MAX_LOGGED_BODY_BYTES of a body's chunks and whether more came. */
class Collector {
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;

  add(chunk: unknown, encoding?: unknown): void {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const buffer = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.from(chunk as Uint8Array);
    const room = MAX_LOGGED_BODY_BYTES - this.bytes;
    if (buffer.length > room) this.truncated = true;
    if (room <= 0) return;
    const kept = buffer.length > room ? buffer.subarray(0, room) : buffer;
    this.chunks.push(Buffer.from(kept));
    this.bytes += kept.length;
  }

  bodyOf(contentType: string | undefined): LoggedBody | null {
    if (this.bytes === 0 || contentType === undefined || !isLoggable(contentType)) return null;
    // A cut inside a UTF-8 sequence leaves a replacement character at the end, nothing worse.
    const text = redactBody(Buffer.concat(this.chunks).toString('utf8'));
    return { contentType, text, truncated: this.truncated };
  }
}

/** The Content-Type in the headers a `writeHead` was given (an object, or a flat or paired list). */
function contentTypeIn(headers: unknown): string | undefined {
  if (headers === undefined || headers === null || typeof headers !== 'object') return undefined;
  if (Array.isArray(headers)) {
    const flat = headers.flat() as unknown[];
    for (let i = 0; i < flat.length; i += 2) {
      if (String(flat[i]).toLowerCase() === 'content-type') return String(flat[i + 1]);
    }
    return undefined;
  }
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
    if (name.toLowerCase() === 'content-type') return String(value);
  }
  return undefined;
}

/**
 * Starts keeping the bodies of a call made with a test key (the sandbox's API log with bodies).
 * Installed when the request arrives, before anything reads its body: the request's chunks are seen
 * as node:http pushes them (the stream's flow is not changed), the response's as they are written,
 * whoever writes them (the upstream pipe, a refusal, the key-management API). Nothing of the headers
 * is kept: the `Authorization` header never reaches a log.
 */
export function startBodyCapture(req: IncomingMessage, res: ServerResponse): BodyCapture {
  const request = new Collector();
  const response = new Collector();
  let responseType: string | undefined;

  const push = req.push;
  req.push = function pushAndKeep(this: IncomingMessage, chunk: unknown, encoding?: BufferEncoding) {
    request.add(chunk, encoding);
    return push.call(this, chunk, encoding);
  } as typeof req.push;

  const writeHead = res.writeHead;
  res.writeHead = function writeHeadAndKeep(this: ServerResponse, ...args: unknown[]) {
    const headers = typeof args[1] === 'string' ? args[2] : args[1];
    responseType = contentTypeIn(headers);
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as typeof res.writeHead;
  const write = res.write;
  res.write = function writeAndKeep(this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    response.add(chunk, rest[0]);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  const end = res.end;
  res.end = function endAndKeep(this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    response.add(chunk, rest[0]);
    return (end as (...a: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;

  return {
    finish() {
      const header = res.getHeader('content-type');
      const type = responseType ?? (header === undefined ? undefined : String(header));
      return {
        request: request.bodyOf(req.headers['content-type']),
        response: response.bodyOf(type),
      };
    },
  };
}
