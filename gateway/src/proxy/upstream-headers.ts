import type { IncomingHttpHeaders } from 'node:http';
import { MAX_ROUTE_COST } from '@keygate/contracts/gateway';
import {
  ENVIRONMENT_HEADER,
  IDENTITY_HEADER,
  IDENTITY_HEADER_PREFIX,
  type Identity,
  KEY_ID_HEADER,
  SCOPES_HEADER,
} from '@keygate/identity';
import type { Principal } from '../auth/principal.ts';
import { GatewayError } from '../errors.ts';

/**
 * Client headers never passed upstream: credentials, anything claiming identity, ids or a forwarding
 * chain or a client address, `Expect` (the gateway answers it, once the key passed), and headers some
 * frameworks honour to override the method or path the gateway authorized.
 */
const STRIPPED = new Set([
  'expect',
  'authorization',
  'proxy-authorization',
  'x-request-id',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'forwarded',
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
  'x-original-url',
  'x-rewrite-url',
  'x-original-method',
  // The sandbox's forced-failure request (test keys): the gateway's to answer, never the upstream's.
  'keygate-test-scenario',
]);

/**
 * Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message: neither the
 * client's nor the upstream's are forwarded; each side's connection is managed by node:http.
 */
export const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'upgrade',
  'transfer-encoding',
]);

/**
 * The client's framing headers are never copied: the gateway states the framing of the body it
 * streams on itself (see `framingOf`), so no client header list can make the upstream read a body
 * as a second request.
 */
const FRAMING = new Set(['content-length', 'transfer-encoding']);

/** The upstream request's framing header as a `[name, value]` pair, or null for a request without a body. */
export type Framing = readonly [name: string, value: string] | null;

const CHUNKED: Framing = Object.freeze(['transfer-encoding', 'chunked'] as const);

/**
 * The framing of the body node:http parsed from the client: chunked when the client sent a transfer
 * coding (node has already decoded it), else the client's Content-Length, else none (no body).
 */
export function framingOf(headers: IncomingHttpHeaders): Framing {
  if (headers['transfer-encoding'] !== undefined) return CHUNKED;
  const length = headers['content-length'];
  return length === undefined ? null : ['content-length', length];
}

/**
 * Throws 400 MALFORMED_REQUEST for a body whose framing could be read two ways: a transfer coding
 * other than plain `chunked` (node:http already refuses Content-Length with Transfer-Encoding and
 * duplicate Content-Length).
 */
export function assertUnambiguousFraming(headers: IncomingHttpHeaders): void {
  const coding = headers['transfer-encoding'];
  if (coding !== undefined && coding !== 'chunked' && coding.toLowerCase() !== 'chunked') {
    throw new GatewayError(
      'MALFORMED_REQUEST',
      'Send a request body with Content-Length or `Transfer-Encoding: chunked` only.',
    );
  }
}

/** True for a (lower-case) client header that must never reach an upstream: credentials, identity, ids, forwarding. */
export function isClientOnlyHeader(name: string): boolean {
  return STRIPPED.has(name) || name.startsWith(IDENTITY_HEADER_PREFIX);
}

export interface UpstreamRequest {
  method: string;
  /** Path and query exactly as forwarded (the assertion is bound to it). */
  path: string;
  /** The `Host` the client asked for, or the `X-Forwarded-Host` of a trusted proxy in front. */
  host: string | undefined;
  /** The client's scheme: the socket's, or the `X-Forwarded-Proto` of a trusted proxy in front. */
  scheme: 'http' | 'https';
  /** The body's framing, from `framingOf`. */
  framing: Framing;
  /**
   * With tracing on, the trace context the upstream continues: it replaces the client's `traceparent`
   * and `tracestate`. Absent (tracing off), the client's pass through as they came.
   */
  trace?: { traceparent: string; tracestate: string | undefined };
}

/** What the signed assertion states for one request (`path`: path and query as forwarded). */
export function identityOf(principal: Principal, method: string, path: string): Identity {
  const { key, secret, requestId } = principal;
  return {
    keyId: key.id,
    environment: key.environment,
    scopes: key.scopes,
    secretId: secret.id,
    method,
    path,
    requestId,
  };
}

/** Extra names a client's `Connection` header lists as hop-by-hop, lower-cased (usually none). */
function connectionTokens(rawHeaders: readonly string[]): Set<string> | null {
  let tokens: Set<string> | null = null;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.length === 10 && rawHeaders[i]!.toLowerCase() === 'connection') {
      for (const token of rawHeaders[i + 1]!.split(',')) {
        const name = token.trim().toLowerCase();
        if (!name || name === 'close' || name === 'keep-alive') continue;
        tokens ??= new Set();
        tokens.add(name);
      }
    }
  }
  return tokens;
}

/**
 * The upstream request's headers as a flat `[name, value, …]` list (node:http's raw form): the
 * client's headers (duplicates kept) minus credentials, every `x-keygate-*`, forwarding headers,
 * hop-by-hop headers, framing headers and `Host`; then the body's Content-Length (a chunked body is
 * framed by the client library), `Host` of the upstream, the signed assertion
 * (`X-Keygate-Identity`), plain `X-Keygate-Key-Id` / `-Environment` / `-Scopes` (comma-separated),
 * `X-Request-Id` and `X-Forwarded-For` / `-Proto` / `-Host` describing the resolved client.
 */
export function upstreamHeaderList(
  rawHeaders: readonly string[],
  principal: Principal,
  request: UpstreamRequest,
  assertion: string,
  upstreamHost: string,
): string[] {
  const listed = connectionTokens(rawHeaders);
  const { trace } = request;
  const out: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (name === 'host' || isClientOnlyHeader(name) || HOP_BY_HOP.has(name) || FRAMING.has(name)) continue;
    if (listed?.has(name)) continue;
    if (trace !== undefined && (name === 'traceparent' || name === 'tracestate')) continue;
    out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  const { key, requestId, clientIp } = principal;
  // A chunked body is framed by the client library (undici chunks a body of unknown length itself).
  if (request.framing && request.framing !== CHUNKED) out.push(request.framing[0], request.framing[1]);
  out.push(
    'host',
    upstreamHost,
    IDENTITY_HEADER,
    assertion,
    KEY_ID_HEADER,
    key.id,
    ENVIRONMENT_HEADER,
    key.environment,
    SCOPES_HEADER,
    key.scopes.join(','),
    'x-request-id',
    requestId,
    'x-forwarded-for',
    clientIp,
    'x-forwarded-proto',
    request.scheme,
  );
  if (request.host) out.push('x-forwarded-host', request.host);
  if (trace !== undefined) {
    out.push('traceparent', trace.traceparent);
    if (trace.tracestate !== undefined) out.push('tracestate', trace.tracestate);
  }
  return out;
}

/** Upstream response headers the gateway's own value replaces (`Link` is kept beside the gateway's). */
/** The header an upstream names a call's real cost in (lower-cased). */
export const COST_HEADER = 'keygate-cost';

const GATEWAY_OWNED = new Set([
  'x-request-id',
  'ratelimit-policy',
  'ratelimit',
  'keygate-key-expires',
  'keygate-credits-remaining',
  COST_HEADER,
]);
/**
 * The upstream's word on what a call cost (`Keygate-Cost: N`), when it differs from the route's cost:
 * the gateway charges the difference and never passes the header on.
 */
export function upstreamCostOf(raw: RawHeaderList): number | undefined {
  for (let i = 0; i < raw.length; i += 2) {
    // Only a name of the right length is read as text: most answers have no such header at all.
    if (raw[i]!.length !== COST_HEADER.length || textOf(raw[i]!).toLowerCase() !== COST_HEADER) continue;
    const value = textOf(raw[i + 1]!).trim();
    return /^\d{1,6}$/.test(value) ? Math.min(Number(value), MAX_ROUTE_COST) : undefined;
  }
  return undefined;
}

/** Replaced too when the route table deprecates the route: the table is the authority on its lifecycle. */
const DEPRECATION_OWNED = new Set(['deprecation', 'sunset']);

/** An upstream's raw header list as undici reports it: names and values alternating, as bytes. */
export type RawHeaderList = readonly (Buffer | string)[];

/** A raw header's text, byte for byte (latin1, as node:http reads and writes header bytes). */
function textOf(raw: Buffer | string): string {
  return typeof raw === 'string' ? raw : raw.toString('latin1');
}

/** Header names the upstream's `Connection` headers list besides the usual `keep-alive` / `close`, else null. */
function listedHopHeaders(raw: RawHeaderList): string[] | null {
  let listed: string[] | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length !== 10 || textOf(raw[i]!).toLowerCase() !== 'connection') continue;
    const value = textOf(raw[i + 1]!).toLowerCase();
    if (value === 'keep-alive' || value === 'close') continue;
    listed ??= [];
    listed.push(...value.split(/ *, */));
  }
  return listed;
}

/**
 * The client's response headers as a flat list: `gatewayHeaders` (extended in place), then the
 * upstream's minus hop-by-hop headers, the ones its `Connection` lists and those the gateway owns.
 */
export function clientResponseHeaderList(
  gatewayHeaders: string[],
  raw: RawHeaderList,
  deprecated: boolean,
): string[] {
  const listed = listedHopHeaders(raw);
  for (let i = 0; i < raw.length; i += 2) {
    const name = textOf(raw[i]!);
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || GATEWAY_OWNED.has(lower)) continue;
    if (deprecated && DEPRECATION_OWNED.has(lower)) continue;
    if (listed?.includes(lower)) continue;
    gatewayHeaders.push(name, textOf(raw[i + 1]!));
  }
  return gatewayHeaders;
}
