import { randomUUID } from 'node:crypto';
import {
  type AlertClaim,
  type AlertDeliveryRecord,
  type AlertEndpointRecord,
  type AlertStore,
  DEDUPE_RETENTION_MS,
  deliveryIdOf,
  KEPT_ATTEMPTS,
  signingSecrets,
} from '../../model/alert-store.ts';
import type { RedisClient } from './connection.ts';

/*
 * The alert outbox in Redis, every name under `<prefix>alerts:` of the admin slot group (one hash
 * slot on a Cluster, so each script is atomic):
 * | alerts:endpoints                 | hash   | endpoint id → endpoint JSON                          |
 * | alerts:event:<dedupe key>        | string | the event id; PX 40 days (one event per dedupe key)  |
 * | alerts:delivery:<id>             | string | delivery JSON, with the event body                   |
 * | alerts:finished                  | zset   | finished delivery ids, score = completion (ms): pruning |
 * | alerts:due                       | zset   | delivery ids, score = next attempt (pending) or lease end (delivering) |
 * | alerts:endpoint:<id>:deliveries  | zset   | the endpoint's delivery ids, score = seq             |
 * | alerts:seq                       | string | the last delivery seq                                |
 * | alerts:events                    | stream | every event but test alerts (type, body), the newest 10,000 or so: `listen` |
 */

const TAKES = `
local function takes(e, etype, identity)
  if not e.enabled then return false end
  if e.eventTypes ~= cjson.null then
    local found = false
    for _, t in ipairs(e.eventTypes) do if t == etype then found = true end end
    if not found then return false end
  end
  if e.identityIds == cjson.null then return true end
  if identity == '' then return false end
  for _, i in ipairs(e.identityIds) do if i == identity then return true end end
  return false
end
`;

/** KEYS: endpoints, dedupe key, due, seq. ARGV: prefix, event id, type, identity ('' none), body, createdAt, deliverAt, dedupe ms, test endpoint ('' none), ids base. */
const RECORD = `${TAKES}
if redis.call('SET', KEYS[2], ARGV[2], 'NX', 'PX', ARGV[8]) == false then return false end
local targets = {}
if ARGV[9] ~= '' then
  targets[1] = ARGV[9]
else
  local all = redis.call('HGETALL', KEYS[1])
  local ids = {}
  for i = 1, #all, 2 do ids[#ids + 1] = all[i] end
  table.sort(ids)
  for _, id in ipairs(ids) do
    local e = cjson.decode(redis.call('HGET', KEYS[1], id))
    if takes(e, ARGV[3], ARGV[4]) then targets[#targets + 1] = id end
  end
end
if ARGV[9] == '' then
  redis.call('XADD', ARGV[1] .. 'events', 'MAXLEN', '~', 10000, '*', 'type', ARGV[3], 'body', ARGV[5])
end
local out = {}
for n, endpointId in ipairs(targets) do
  local id = ARGV[10] .. string.format('%x', n - 1)
  local seq = redis.call('INCR', KEYS[4])
  redis.call('SET', ARGV[1] .. 'delivery:' .. id, cjson.encode({
    id = id, seq = seq, eventId = ARGV[2], eventType = ARGV[3], endpointId = endpointId,
    status = 'pending', nextAttemptAt = tonumber(ARGV[7]), scheduleStep = 0, attemptCount = 0,
    createdAt = ARGV[6], completedAt = cjson.null, body = ARGV[5], leaseToken = cjson.null
  }))
  redis.call('ZADD', KEYS[3], ARGV[7], id)
  redis.call('ZADD', ARGV[1] .. 'endpoint:' .. endpointId .. ':deliveries', seq, id)
  out[#out + 1] = id
end
return out
`;

/** KEYS: due, endpoints. ARGV: prefix, now, limit, lease ms, token base. Returns [delivery JSON, endpoint JSON] pairs. */
const CLAIM = `
local now, limit = tonumber(ARGV[2]), tonumber(ARGV[3])
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, limit * 4)
local out = {}
for _, id in ipairs(ids) do
  if #out >= limit * 2 then break end
  local dkey = ARGV[1] .. 'delivery:' .. id
  local json = redis.call('GET', dkey)
  local ejson = json and redis.call('HGET', KEYS[2], cjson.decode(json).endpointId)
  if not ejson then
    redis.call('ZREM', KEYS[1], id)
  else
    local d, e = cjson.decode(json), cjson.decode(ejson)
    if not e.enabled then
      -- looked at again in a minute: enabling the endpoint brings its deliveries back
      redis.call('ZADD', KEYS[1], now + 60000, id)
    elseif d.status == 'pending' or d.status == 'delivering' then
      d.status = 'delivering'
      d.leaseToken = ARGV[5] .. #out
      redis.call('SET', dkey, cjson.encode(d))
      redis.call('ZADD', KEYS[1], now + tonumber(ARGV[4]), id)
      out[#out + 1] = cjson.encode(d)
      out[#out + 1] = ejson
    else
      redis.call('ZREM', KEYS[1], id)
    end
  end
end
return out
`;

/** KEYS: delivery, due, endpoints, finished. ARGV: token, status, next ms ('' none), step, attempt JSON, completedAt ('' none), failingSince ('' none), disable ('' none), kept, now ms. */
const COMPLETE = `
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local d = cjson.decode(json)
if d.status ~= 'delivering' or d.leaseToken ~= ARGV[1] then return 0 end
d.status = ARGV[2]
d.leaseToken = cjson.null
d.scheduleStep = tonumber(ARGV[4])
d.attemptCount = d.attemptCount + 1
local attempts = { cjson.decode(ARGV[5]) }
if d.attempts then
  for i = 1, math.min(#d.attempts, tonumber(ARGV[9]) - 1) do attempts[#attempts + 1] = d.attempts[i] end
end
d.attempts = attempts
if ARGV[3] == '' then
  d.nextAttemptAt = cjson.null
  redis.call('ZREM', KEYS[2], d.id)
  redis.call('ZADD', KEYS[4], ARGV[10], d.id)
else
  d.nextAttemptAt = tonumber(ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[3], d.id)
end
d.completedAt = ARGV[6] == '' and cjson.null or ARGV[6]
redis.call('SET', KEYS[1], cjson.encode(d))
local ejson = redis.call('HGET', KEYS[3], d.endpointId)
if ejson then
  local e = cjson.decode(ejson)
  e.failingSince = ARGV[7] == '' and cjson.null or ARGV[7]
  if ARGV[8] ~= '' and e.enabled then
    e.enabled = false
    e.disabledReason = ARGV[8]
  end
  redis.call('HSET', KEYS[3], d.endpointId, cjson.encode(e))
end
return 1
`;

/** KEYS: delivery, due, finished. ARGV: now. */
const REQUEUE = `
local json = redis.call('GET', KEYS[1])
if not json then return 0 end
local d = cjson.decode(json)
if d.status == 'delivering' then return 0 end
d.status = 'pending'
d.nextAttemptAt = tonumber(ARGV[1])
d.scheduleStep = 0
d.completedAt = cjson.null
redis.call('SET', KEYS[1], cjson.encode(d))
redis.call('ZADD', KEYS[2], ARGV[1], d.id)
redis.call('ZREM', KEYS[3], d.id)
return 1
`;

/** KEYS: finished. ARGV: prefix, before ms, limit. Deletes finished deliveries completed before. */
const PRUNE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local key = ARGV[1] .. 'delivery:' .. id
  local json = redis.call('GET', key)
  if json then
    redis.call('ZREM', ARGV[1] .. 'endpoint:' .. cjson.decode(json).endpointId .. ':deliveries', id)
    redis.call('DEL', key)
  end
  redis.call('ZREM', KEYS[1], id)
end
return #ids
`;

/** KEYS: endpoints, due, the endpoint's deliveries. ARGV: prefix, endpoint id. */
const DELETE_ENDPOINT = `
if redis.call('HDEL', KEYS[1], ARGV[2]) == 0 then return 0 end
for _, id in ipairs(redis.call('ZRANGE', KEYS[3], 0, -1)) do
  redis.call('DEL', ARGV[1] .. 'delivery:' .. id)
  redis.call('ZREM', KEYS[2], id)
end
redis.call('DEL', KEYS[3])
return 1
`;

/** KEYS: endpoints, due. ARGV: endpoint id, JSON. Re-enabling brings its waiting deliveries back at once. */
const SAVE_ENDPOINT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

const SCRIPTS = {
  alertRecord: RECORD,
  alertClaim: CLAIM,
  alertComplete: COMPLETE,
  alertRequeue: REQUEUE,
  alertDeleteEndpoint: DELETE_ENDPOINT,
  alertSaveEndpoint: SAVE_ENDPOINT,
  alertPrune: PRUNE,
};

type Runner = (...args: (string | number)[]) => Promise<unknown>;

function defineAlertScripts(client: RedisClient): Record<keyof typeof SCRIPTS, Runner> {
  const entries = Object.entries(SCRIPTS).map(([name, lua]) => {
    const command = `keygate${name[0]!.toUpperCase()}${name.slice(1)}`;
    client.defineCommand(command, { lua });
    if (client.isCluster) {
      const options = client.options as { autoPipeliningIgnoredCommands?: string[] };
      options.autoPipeliningIgnoredCommands = [...(options.autoPipeliningIgnoredCommands ?? []), command];
    }
    const run = (client as unknown as Record<string, Runner>)[command]!;
    return [name, (...args: (string | number)[]) => run.apply(client, args)] as const;
  });
  return Object.fromEntries(entries) as Record<keyof typeof SCRIPTS, Runner>;
}

interface StoredDelivery {
  id: string;
  seq: number;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: AlertDeliveryRecord['status'];
  nextAttemptAt: number | null;
  scheduleStep: number;
  attemptCount: number;
  createdAt: string;
  completedAt: string | null;
  body: string;
  leaseToken: string | null;
  attempts?: AlertDeliveryRecord['attempts'];
}

function present(d: StoredDelivery): AlertDeliveryRecord {
  return {
    id: d.id,
    seq: d.seq,
    eventId: d.eventId,
    eventType: d.eventType,
    endpointId: d.endpointId,
    status: d.status,
    nextAttemptAt: d.nextAttemptAt === null ? null : new Date(d.nextAttemptAt).toISOString(),
    attemptCount: d.attemptCount,
    createdAt: d.createdAt,
    completedAt: d.completedAt,
    attempts: d.attempts ?? [],
  };
}

/** The alert store in Redis under `prefix` (the admin group's `…alerts:`); see the table above. */
export function createRedisAlertStore(client: RedisClient, prefix: string): AlertStore {
  const scripts = defineAlertScripts(client);
  const endpoints = `${prefix}endpoints`;
  const due = `${prefix}due`;
  const finished = `${prefix}finished`;
  const delivery = (id: string) => `${prefix}delivery:${id}`;
  const ofEndpoint = (id: string) => `${prefix}endpoint:${id}:deliveries`;
  const read = async (id: string) => {
    const json = await client.get(delivery(id));
    return json === null ? null : (JSON.parse(json) as StoredDelivery);
  };
  async function record(event: Parameters<AlertStore['recordEvent']>[0], testEndpoint: string) {
    const result = (await scripts.alertRecord(
      4,
      endpoints,
      `${prefix}event:${event.dedupeKey}`,
      due,
      `${prefix}seq`,
      prefix,
      event.id,
      event.type,
      event.identityId ?? '',
      event.body,
      event.createdAt,
      event.deliverAt,
      DEDUPE_RETENTION_MS,
      testEndpoint,
      deliveryIdOf(event.id, 0).slice(0, -1),
    )) as string[] | null;
    return result ?? null;
  }
  return {
    async insertEndpoint(endpoint) {
      await client.hset(endpoints, endpoint.id, JSON.stringify(endpoint));
    },
    async findEndpoint(id) {
      const json = await client.hget(endpoints, id);
      return json === null ? null : (JSON.parse(json) as AlertEndpointRecord);
    },
    async listEndpoints() {
      const all = Object.values(await client.hgetall(endpoints)).map(
        (j) => JSON.parse(j) as AlertEndpointRecord,
      );
      return all.sort((a, b) =>
        a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
      );
    },
    async saveEndpoint(endpoint) {
      return (
        (await scripts.alertSaveEndpoint(2, endpoints, due, endpoint.id, JSON.stringify(endpoint))) === 1
      );
    },
    async deleteEndpoint(id) {
      return (await scripts.alertDeleteEndpoint(3, endpoints, due, ofEndpoint(id), prefix, id)) === 1;
    },
    recordEvent: (event) => record(event, ''),
    async recordTest(endpointId, event) {
      await record(event, endpointId);
      return deliveryIdOf(event.id, 0);
    },
    async claimDue(nowMs, limit, leaseMs) {
      if (limit <= 0) return [];
      const pairs = (await scripts.alertClaim(
        2,
        due,
        endpoints,
        prefix,
        nowMs,
        limit,
        leaseMs,
        randomUUID(),
      )) as string[];
      const claims: AlertClaim[] = [];
      for (let i = 0; i < pairs.length; i += 2) {
        const d = JSON.parse(pairs[i]!) as StoredDelivery;
        const endpoint = JSON.parse(pairs[i + 1]!) as AlertEndpointRecord;
        claims.push({
          deliveryId: d.id,
          endpointId: d.endpointId,
          url: endpoint.url,
          secrets: signingSecrets(endpoint, nowMs),
          body: d.body,
          eventType: d.eventType,
          scheduleStep: d.scheduleStep,
          webhookTimestamp: Math.floor(nowMs / 1000),
          failingSince: endpoint.failingSince,
          leaseToken: d.leaseToken!,
        });
      }
      return claims;
    },
    async completeAttempt(claim, attempt, outcome, at) {
      const done = outcome.status === 'pending' ? '' : at.toISOString();
      return (
        (await scripts.alertComplete(
          4,
          delivery(claim.deliveryId),
          due,
          endpoints,
          finished,
          claim.leaseToken,
          outcome.status,
          outcome.nextAttemptAt?.getTime() ?? '',
          outcome.scheduleStep,
          JSON.stringify(attempt),
          done,
          outcome.failingSince?.toISOString() ?? '',
          outcome.disable ?? '',
          KEPT_ATTEMPTS,
          at.getTime(),
        )) === 1
      );
    },
    async listDeliveries(endpointId, page) {
      const max = page.beforeSeq === null ? '+inf' : `(${page.beforeSeq}`;
      const ids = await client.zrevrangebyscore(ofEndpoint(endpointId), max, '-inf', 'LIMIT', 0, page.limit);
      const found = await Promise.all(ids.map(read));
      return found.filter((d): d is StoredDelivery => d !== null).map(present);
    },
    async findDelivery(id) {
      const d = await read(id);
      return d ? present(d) : null;
    },
    async requeueDelivery(id, nowMs) {
      return (await scripts.alertRequeue(3, delivery(id), due, finished, nowMs)) === 1;
    },
    async countPending() {
      return client.zcard(due);
    },
    async listEvents(cursor, limit) {
      const start = /^\d+-\d+$/.test(cursor) ? `(${cursor}` : '-';
      const entries = await client.xrange(`${prefix}events`, start, '+', 'COUNT', limit);
      return entries.map(([id, fields]) => {
        const value = (name: string) => fields[fields.indexOf(name) + 1] ?? '';
        return { cursor: id, type: value('type'), body: value('body') };
      });
    },
    async pruneFinished(beforeMs, limit) {
      return Number(await scripts.alertPrune(1, finished, prefix, beforeMs, limit));
    },
    async latestEventCursor() {
      const [newest] = await client.xrevrange(`${prefix}events`, '+', '-', 'COUNT', 1);
      return newest?.[0] ?? '0-0';
    },
  };
}
