// The peer: the API-key gateway a Node team would build instead of keygate, in front of the no-op
// upstream. Fastify 5 + @fastify/reply-from (undici) + rate-limiter-flexible, and a bearer check that
// looks up the SHA-256 of the token in a Map of 100 keys, then checks scope and client IP. It signs
// nothing. Three variants, chosen by environment:
// - BENCH_PEER_LOGGER=1: Fastify's default production logger (`logger: true`, pino, a line per
//   request and per response), the judged peer: keygate as shipped writes an access line and an API
//   log line per call, so the unlogged peer compared different work;
// - BENCH_PEER_REDIS_URL=redis://…: the rate limit in Redis (RateLimiterRedis on ioredis), the peer
//   of keygate's Redis mode;
// - neither: the unlogged, in-memory peer (a row without a target).
// Started with `--import @opentelemetry/auto-instrumentations-node/register` and `OTEL_*` settings,
// the logged peer is also the traced peer (#44): the OpenTelemetry Node SDK as its docs start it.
// Its 401 to an unknown token (a hash and a Map miss, a line per request and response) is the
// refusal keygate's is held to.
//   BENCH_PEER_TOKEN=… node bench/servers/fastify-peer.ts PORT UPSTREAM_URL
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import replyFrom from '@fastify/reply-from';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { exitWithParent, portArgument } from './lifeline.ts';

interface PeerKey {
  id: string;
  scopes: Set<string>;
  allowedIps: Set<string>;
}

const token = process.env.BENCH_PEER_TOKEN;
if (!token) throw new Error('BENCH_PEER_TOKEN is required');
const upstream = process.argv[3] ?? '';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const keys = new Map<string, PeerKey>();
keys.set(sha256(token), { id: 'key_peer', scopes: new Set(['article:r']), allowedIps: LOOPBACK });
// 99 more keys, as keygate's "100 keys" memory mode has.
for (let i = 1; i < 100; i++) {
  keys.set(sha256(randomBytes(24).toString('base64url')), {
    id: `key_filler_${i}`,
    scopes: new Set(['article:r']),
    allowedIps: LOOPBACK,
  });
}
// A limit no bench run reaches: every request is counted, none is refused.
const LIMIT = { points: 1_000_000_000, duration: 60 };
const redisUrl = process.env.BENCH_PEER_REDIS_URL;
// As rate-limiter-flexible documents for ioredis: no offline queue, refuse while Redis is not ready.
const redis = redisUrl ? new Redis(redisUrl, { enableOfflineQueue: false }) : null;
if (redis) await once(redis, 'ready');
const limiter: RateLimiterAbstract = redis
  ? new RateLimiterRedis({ ...LIMIT, storeClient: redis, keyPrefix: 'peer', rejectIfRedisNotReady: true })
  : new RateLimiterMemory(LIMIT);

const app = Fastify({ logger: process.env.BENCH_PEER_LOGGER === '1' });
await app.register(replyFrom, {
  base: upstream,
  undici: { connections: 256, pipelining: 1 },
});

app.get('/healthz', async () => ({ ok: true }));

app.get('/v2/catalog/products', async (request, reply) => {
  const header = request.headers.authorization;
  const presented = header?.startsWith('Bearer ') ? header.slice(7) : null;
  const key = presented === null ? undefined : keys.get(sha256(presented));
  if (!key) return reply.code(401).send({ code: 'UNAUTHENTICATED' });
  if (!key.scopes.has('article:r')) return reply.code(403).send({ code: 'INSUFFICIENT_SCOPE' });
  if (!key.allowedIps.has(request.ip)) return reply.code(403).send({ code: 'IP_NOT_ALLOWED' });
  try {
    await limiter.consume(key.id);
  } catch {
    return reply.code(429).send({ code: 'RATE_LIMITED' });
  }
  return reply.from(request.url, {
    rewriteRequestHeaders: (_request, headers) => {
      const { authorization: _authorization, ...rest } = headers;
      return { ...rest, 'x-key-id': key.id };
    },
  });
});

await app.listen({ port: portArgument(), host: '127.0.0.1' });
app.server.keepAliveTimeout = 65_000;
exitWithParent();
// The bench stops its children with SIGTERM: exiting normally lets Node write a --cpu-prof profile.
process.on('SIGTERM', () => process.exit(0));
