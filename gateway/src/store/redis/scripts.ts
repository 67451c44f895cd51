import { BUDGET_SCRIPTS } from './budget-scripts.ts';
import type { RedisClient } from './connection.ts';
import { SETTLE_LUA } from './settle-lua.ts';

/**
 * The Lua scripts of the Redis key store. Each runs atomically on the server (EVALSHA through
 * ioredis `defineCommand`, falling back to EVAL after a restart emptied the script cache). Redis
 * does not roll a script back, so every script checks everything before its first write. Key names
 * are computed in TypeScript (keys.ts) and passed in KEYS; findByLookup alone derives two
 * names from passed prefixes. Argument layouts are documented where the arguments are built.
 */

/** Byte-wise "a is later than b" for ISO instants (Lua's `>` follows the server's locale). */
const LATER = `
local function later(a, b)
  if not b then return true end
  for i = 1, math.min(#a, #b) do
    local x, y = string.byte(a, i), string.byte(b, i)
    if x ~= y then return x > y end
  end
  return #a > #b
end
local function advance(hash, field, at)
  if later(at, redis.call('HGET', hash, field)) then redis.call('HSET', hash, field, at) end
end
`;

/** See commitArgs in writes.ts for KEYS/ARGV. Returns 1, or 0 on a version conflict or a lost idempotency lease. */
const COMMIT_CHANGE = `${SETTLE_LUA}
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[4] == '' then
  if current then return 0 end
elseif current ~= ARGV[4] then
  return 0
end
local secretTotal = tonumber(ARGV[14])
local extra = 15 + secretTotal * 7 + 4
local idempotencyKey, alertInbox = KEYS[#KEYS - 1], KEYS[#KEYS]
if not settleHolds(idempotencyKey, ARGV[extra]) then return 0 end
if redis.call('HEXISTS', KEYS[3], ARGV[10]) == 1 then
  return redis.error_reply('activity id already exists')
end
if KEYS[7] ~= KEYS[1] and redis.call('EXISTS', KEYS[7]) == 0 then
  return redis.error_reply('activity names an unknown key')
end
local indexCount, secretCount = tonumber(ARGV[13]), tonumber(ARGV[14])
local claimed = {}
for i = 0, secretCount - 1 do
  local k, a = 11 + indexCount + i * 3, 14 + i * 7
  if redis.call('EXISTS', KEYS[k + 1]) == 0 then
    local id, lookup = ARGV[a + 1], ARGV[a + 3]
    local holder = redis.call('HGET', KEYS[2], lookup) or claimed[lookup]
    if holder and holder ~= id then return redis.error_reply('secret lookup already taken') end
    claimed[lookup] = id
    if KEYS[k + 2] ~= KEYS[1] and redis.call('EXISTS', KEYS[k + 2]) == 0 then
      return redis.error_reply('secret names an unknown key')
    end
  end
end
-- The plan and identity indexes of the key (in its group: the names share KEYS[1]'s prefix).
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[3] - 4)
local function refs(json)
  if not json then return nil, nil end
  local data = cjson.decode(json)
  local plan, identity = data.planId, data.identityId
  if type(plan) ~= 'string' then plan = nil end
  if type(identity) ~= 'string' then identity = nil end
  return plan, identity
end
local oldPlan, oldIdentity = refs(redis.call('HGET', KEYS[1], 'data'))
local newPlan, newIdentity = refs(ARGV[6])
local expiryAt = 15 + secretCount * 7
-- Outside a Cluster the plan and identity hashes share the prefix: a key never names a missing one.
if ARGV[expiryAt + 3] == '1' then
  if newPlan and newPlan ~= oldPlan and redis.call('EXISTS', prefix .. 'plan:' .. newPlan) == 0 then return 0 end
  if newIdentity and newIdentity ~= oldIdentity and redis.call('EXISTS', prefix .. 'identity:' .. newIdentity) == 0 then
    return 0
  end
end
if oldPlan then redis.call('SREM', prefix .. 'plan:' .. oldPlan .. ':keys', ARGV[3]) end
if oldIdentity then redis.call('SREM', prefix .. 'identity:' .. oldIdentity .. ':keys', ARGV[3]) end
if newPlan then redis.call('SADD', prefix .. 'plan:' .. newPlan .. ':keys', ARGV[3]) end
if newIdentity then redis.call('SADD', prefix .. 'identity:' .. newIdentity .. ':keys', ARGV[3]) end
if ARGV[4] == '' and ARGV[expiryAt + 1] ~= '' then
  redis.call('HSET', prefix .. 'budget:' .. ARGV[3], 'credits', ARGV[expiryAt + 1], 'refilledAt', ARGV[expiryAt + 2])
end
for i = 12, 11 + indexCount do redis.call('ZREM', KEYS[i], ARGV[3]) end
redis.call('HSET', KEYS[1], 'data', ARGV[6], 'version', ARGV[5], 'environment', ARGV[7], 'status', ARGV[8])
local closingIndex, expiryIndex = KEYS[#KEYS - 3], KEYS[#KEYS - 2]
if ARGV[expiryAt] == '' then
  redis.call('ZREM', expiryIndex, ARGV[3])
else
  redis.call('ZADD', expiryIndex, ARGV[expiryAt], ARGV[3])
end
for i = 8, 11 do redis.call('ZADD', KEYS[i], ARGV[9], ARGV[3]) end
for i = 0, secretCount - 1 do
  local k, a = 11 + indexCount + i * 3, 14 + i * 7
  if redis.call('EXISTS', KEYS[k + 1]) == 1 then
    redis.call('HSET', KEYS[k + 1], 'closing', ARGV[a + 6])
  else
    redis.call('HSET', KEYS[k + 1], 'keyId', ARGV[a + 2], 'data', ARGV[a + 5], 'closing', ARGV[a + 6], 'callCount', 0)
    redis.call('HSET', KEYS[2], ARGV[a + 3], ARGV[a + 1])
    redis.call('ZADD', KEYS[k + 3], ARGV[a + 4], ARGV[a + 1])
  end
  local member = ARGV[a + 2] .. ' ' .. ARGV[a + 1]
  if ARGV[a + 7] == '' then
    redis.call('ZREM', closingIndex, member)
  else
    redis.call('ZADD', closingIndex, ARGV[a + 7], member)
  end
end
redis.call('HSET', KEYS[3], ARGV[10], ARGV[12])
for i = 4, 6 do redis.call('ZADD', KEYS[i], 0, ARGV[11]) end
settleWrite(idempotencyKey, ARGV[extra], ARGV[extra + 1], ARGV[extra + 2])
for i = 1, tonumber(ARGV[extra + 3]) do
  redis.call('HSET', alertInbox, ARGV[extra + 2 + i * 2], ARGV[extra + 3 + i * 2])
end
for part in string.gmatch(ARGV[2], '[^\\n]+') do redis.call('PUBLISH', ARGV[1], part) end
return 1
`;

/**
 * See usageArgs in writes.ts. Sums buckets, advances counters; never touches a key's version.
 * Returns 0 without writing when the chunk's flush marker (KEYS[2]) is already set: a retried chunk.
 */
const RECORD_USAGE = `${LATER}
local ttl = ARGV[1]
if KEYS[2] ~= KEYS[1] then
  if not redis.call('SET', KEYS[2], 1, 'NX', 'EX', ARGV[2]) then return 0 end
end
for i = 0, (#KEYS - 2) / 4 - 1 do
  local bucket, index, secret, key = KEYS[i * 4 + 3], KEYS[i * 4 + 4], KEYS[i * 4 + 5], KEYS[i * 4 + 6]
  local a = 2 + i * 10
  local calls, last = ARGV[a + 4], ARGV[a + 9]
  redis.call('HINCRBY', bucket, 'calls', calls)
  redis.call('HINCRBY', bucket, 'errors4xx', ARGV[a + 5])
  redis.call('HINCRBY', bucket, 'errors5xx', ARGV[a + 6])
  redis.call('HINCRBYFLOAT', bucket, 'latencyMsSum', ARGV[a + 7])
  local slot = 0
  for count in string.gmatch(ARGV[a + 8], '[^,]+') do
    if count ~= '0' then redis.call('HINCRBY', bucket, 'h' .. slot, count) end
    slot = slot + 1
  end
  if slot > tonumber(redis.call('HGET', bucket, 'slots') or '0') then redis.call('HSET', bucket, 'slots', slot) end
  advance(bucket, 'lastCallAt', last)
  redis.call('EXPIRE', bucket, ttl)
  redis.call('ZADD', index, ARGV[a + 2], ARGV[a + 1])
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. ARGV[a + 3])
  redis.call('EXPIRE', index, ttl)
  redis.call('SADD', KEYS[1], ARGV[a + 10])
  if redis.call('EXISTS', secret) == 1 then
    redis.call('HINCRBY', secret, 'callCount', calls)
    advance(secret, 'lastCallAt', last)
  end
  if redis.call('EXISTS', key) == 1 then advance(key, 'lastCallAt', last) end
end
return 1
`;

/**
 * KEYS: lex index, data hash. ARGV: max bound, min bound, wanted count, scan budget, then
 * (field, value) filter pairs checked on the decoded JSON. Walks the index newest first and
 * returns { resume, json... }: resume is '' when done, else the bound to continue from (the
 * budget keeps one call short however selective the filter).
 */
const SCAN_PAGE = `
local max, min = ARGV[1], ARGV[2]
local want, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
local filters = {}
for i = 5, #ARGV - 1, 2 do filters[#filters + 1] = { ARGV[i], ARGV[i + 1] } end
local step = want
if #filters > 0 then step = math.max(want, 100) end
local out, scanned = { '' }, 0
while scanned < budget do
  local members = redis.call('ZREVRANGEBYLEX', KEYS[1], max, min, 'LIMIT', 0, step)
  for _, member in ipairs(members) do
    local json = redis.call('HGET', KEYS[2], string.sub(member, string.find(member, ' ', 1, true) + 1))
    local keep = json ~= false
    if keep and #filters > 0 then
      local entry = cjson.decode(json)
      for _, filter in ipairs(filters) do
        if entry[filter[1]] ~= filter[2] then keep = false break end
      end
    end
    if keep then
      out[#out + 1] = json
      if #out > want then return out end
    end
    max = '(' .. member
  end
  scanned = scanned + #members
  if #members < step then return out end
end
out[1] = max
return out
`;

/**
 * KEYS: key hash, sweep:closing, sweep:expiry. ARGV: the key version the caller read, key id, its
 * sweep:expiry score ('' = remove), then per secret: sweep:closing member and score ('' = remove).
 * Indexes one key written before the sweep zsets existed; returns 0 (writing nothing) when the key
 * changed since it was read, so the caller reads it again.
 */
const INDEX_SWEEP_KEY = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
end
for i = 4, #ARGV - 1, 2 do
  if ARGV[i + 1] == '' then
    redis.call('ZREM', KEYS[2], ARGV[i])
  else
    redis.call('ZADD', KEYS[2], ARGV[i + 1], ARGV[i])
  end
end
return 1
`;

/** KEYS: the secret's hash. ARGV: its tag. Sets the `tag` field of a secret that exists; 1 if set. */
const SET_SECRET_TAG = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'tag', ARGV[1])
return 1
`;

/** KEYS: lookups. ARGV: lookup, secret name prefix, key name prefix. Secret and key fields (the secret's tag last), or nil. */
const FIND_BY_LOOKUP = `
local secretId = redis.call('HGET', KEYS[1], ARGV[1])
if not secretId then return nil end
local secret = redis.call('HMGET', ARGV[2] .. secretId, 'keyId', 'data', 'closing', 'callCount', 'lastCallAt', 'tag')
if not secret[1] then return nil end
local key = redis.call('HMGET', ARGV[3] .. secret[1], 'data', 'version', 'lastCallAt')
if not key[1] then return nil end
return { secret[2], secret[3], secret[4], secret[5], key[1], key[2], key[3], secret[6] }
`;

/** KEYS: logs:keys, then (index, lines) per line. ARGV per line: keyId, id, member, json. Skips known ids. */
const APPEND_LOGS = `
local added = 0
for i = 0, #ARGV / 4 - 1 do
  local a = i * 4
  if redis.call('HSETNX', KEYS[i * 2 + 3], ARGV[a + 2], ARGV[a + 4]) == 1 then
    redis.call('ZADD', KEYS[i * 2 + 2], 0, ARGV[a + 3])
    redis.call('SADD', KEYS[1], ARGV[a + 1])
    added = added + 1
  end
end
return added
`;

/** KEYS: index, lines, logs:keys. ARGV: exclusive upper bound, keyId, batch size. Returns lines removed. */
const PRUNE_LOGS = `
local members = redis.call('ZRANGEBYLEX', KEYS[1], '-', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(members) do
  redis.call('HDEL', KEYS[2], string.sub(member, string.find(member, ' ', 1, true) + 1))
  redis.call('ZREM', KEYS[1], member)
end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[3], ARGV[2]) end
return #members
`;

/**
 * KEYS: usage index of a key, usage:keys. ARGV: exclusive upper score bound, keyId, bucket name
 * prefix of the key, batch size. Returns { index entries removed, bucket hashes deleted }.
 */
const PRUNE_USAGE = `
local members = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[4]))
local deleted = 0
for _, member in ipairs(members) do
  local colon = string.find(member, ':', 1, true)
  deleted = deleted + redis.call('DEL', ARGV[3] .. string.sub(member, colon + 1) .. ':' .. string.sub(member, 1, colon - 1))
  redis.call('ZREM', KEYS[1], member)
end
if redis.call('ZCARD', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[2]) end
return { #members, deleted }
`;

/** KEYS: admin by email, admin ids. ARGV: id, json. 1 when created, 0 when the email or id is taken. */
const CREATE_ADMIN = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('SADD', KEYS[2], ARGV[1])
return 1
`;

/**
 * KEYS: the session hash. ARGV: lastSeenAt, idleExpiresAt (epoch ms). Slides the idle expiry and
 * the key's TTL (idleExpiresAt − lastSeenAt); never recreates a deleted or expired session.
 * Returns 1, or 0 when the session is gone (or ends now, then it is deleted).
 */
const TOUCH_ADMIN_SESSION = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ttl = tonumber(ARGV[2]) - tonumber(ARGV[1])
if ttl <= 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
redis.call('HSET', KEYS[1], 'lastSeenAt', ARGV[1], 'idleExpiresAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;

/**
 * KEYS: the failure counter of one subject. ARGV: window ms. Counts one failure; the first one
 * opens the window (the key's TTL). Returns { count, ms left in the window }.
 */
const COUNT_LOGIN_FAILURE = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  ttl = tonumber(ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return { count, ttl }
`;

/** KEYS: the failure counter of one subject. Returns { count, ms left } or false when no window is open. */
const READ_LOGIN_FAILURES = `
local count = redis.call('GET', KEYS[1])
if not count then return false end
return { tonumber(count), redis.call('PTTL', KEYS[1]) }
`;

/**
 * One name and one argument per operation (nameOf/argOf below). Per operation: 'v' reads field `version` of the hash; a number
 * counts a call on that fixed-window counter (window in seconds, started by its first call: the
 * names and the count-with-expiry rate-limiter-flexible's Redis limiter uses, so instances of either
 * kind share counters). Two entries per operation: the version (or nil) and 0; the count and the ms
 * left; or, for an operation Redis refused (e.g. WRONGTYPE), '!' and the error, and 0. Each runs
 * under pcall, so one refusal fails its own operation only. See call-batch.ts.
 */
const CALL_BATCH_BODY = `
local out = {}
local function refused(reply) return type(reply) == 'table' and reply.err ~= nil end
for i = 1, count do
  local name, arg = nameOf(i), argOf(i)
  if arg == 'v' then
    local version = redis.pcall('HGET', name, 'version')
    if refused(version) then version = '!' .. version.err end
    out[#out + 1] = version
    out[#out + 1] = 0
  else
    local count = redis.pcall('INCR', name)
    if refused(count) then
      out[#out + 1] = '!' .. count.err
      out[#out + 1] = 0
    else
      local left = tonumber(arg) * 1000
      if count == 1 then
        redis.pcall('PEXPIRE', name, left)
      else
        local ttl = redis.pcall('PTTL', name)
        if refused(ttl) or ttl < 0 then redis.pcall('PEXPIRE', name, left) else left = ttl end
      end
      out[#out + 1] = count
      out[#out + 1] = left
    end
  end
end
return out
`;

const CALL_BATCH = `
local count = #KEYS
local function nameOf(i) return KEYS[i] end
local function argOf(i) return ARGV[i] end
${CALL_BATCH_BODY}`;

/**
 * CALL_BATCH for a Cluster: one call carries the operations of every slot its node serves, hence
 * one round trip per master touched. A Cluster refuses declared keys of different slots, so KEYS
 * holds the first name alone (it routes the call) and ARGV every name, then every operation's
 * argument; the flag (Redis 7) lets the script touch the other slots of its node. Each operation
 * touches one key, so none spans slots. Standalone keeps the plain script (no Redis 7 needed).
 */
const CALL_BATCH_CROSS_SLOT = `#!lua flags=allow-cross-slot-keys
local count = #ARGV / 2
local function nameOf(i) return ARGV[i] end
local function argOf(i) return ARGV[count + i] end
${CALL_BATCH_BODY}`;

/**
 * KEYS: one Idempotency-Key record. ARGV: the expected record ('' = none), the next one ('' =
 * delete), its TTL ms. Replaces the record only if it is still the expected one; returns 1, or 0.
 */
/**
 * KEYS: an Idempotency-Key record, its `:target` name. ARGV: the lease expected, the name the record
 * is committed under in another slot group, TTL ms. Notes that name if the lease is still the one
 * expected; returns 1, else 0 (writing nothing). See settle.ts.
 */
const MARK_IDEMPOTENCY_TARGET = `
if (redis.call('GET', KEYS[1]) or '') ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return 1
`;

const SWAP_IDEMPOTENCY = `
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
  return 1
end
local ttl = tonumber(ARGV[3])
if ttl <= 0 then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
end
return 1
`;

/**
 * Budget operations (plans, quotas, credits) of one event-loop turn, decided in one call: the rules
 * of budget/decide.ts, which a test holds this script to. Every argument is in ARGV, names included
 * (on a Cluster the names of one node's slots travel there; KEYS holds the first, to route). Each
 * subject's lines and balance are fields of its budget hash, so an operation reads each hash once
 * (HMGET) and writes it at most once (HSET).
 *
 * Per operation: mode ('s' spend: check, then spend if every line and the balance has room; 'a'
 * adjust: add unchecked, never below 0; 'r' read), amount, the hash holding the balance (1-based,
 * 0 = none), hash count h; per hash: its name, line count m, m × (field, window start ms, limit);
 * with a balance, its refill amount (0 = none) and last refill instant. (A credits operation has a
 * script of its own, CHANGE_CREDITS in budget-scripts.ts, as it carries its request's marker.)
 *
 * A line's field holds `<window start>:<count>`: a count of an earlier window reads as 0, and one of
 * a later window (an instance whose clock runs ahead wrote it) is counted into. A missing field falls
 * back to the line's former counter string (`<hash>:<field>:<start>`, read once after an upgrade).
 * Replies per operation: refusal (0 admitted, l the line that refused in the order sent, -1 the
 * balance), balance (-1 = none), its refill instant, then each line's count after the operation, in
 * the order sent.
 */
const BUDGET_BATCH_BODY = `
local A, num, call, max = ARGV, tonumber, redis.call, math.max
local function countOf(name, field, start, value)
  if not value then return num(call('GET', name .. ':' .. field .. ':' .. start) or '0'), start end
  local colon = string.find(value, ':', 1, true)
  local at = string.sub(value, 1, colon - 1)
  if at == start or num(at) > num(start) then return num(string.sub(value, colon + 1)), at end
  return 0, start
end
-- Reused by every operation of the call (lengths tracked apart): fewer tables to allocate.
local names, ends, fields, starts, limits, used, wanted, writes = {}, {}, {}, {}, {}, {}, {}, {}
local out, o, i, last = {}, 0, 1, #A
while i <= last do
  local mode, amount, balance, h = A[i], num(A[i + 1]), num(A[i + 2]), num(A[i + 3])
  i = i + 4
  local n, remaining, refilledAt, refilled = 0, -1, 0, false
  for k = 1, h do
    local name, m = A[i], num(A[i + 1])
    i = i + 2
    names[k] = name
    for l = 1, m do
      fields[n + l], starts[n + l], limits[n + l] = A[i], A[i + 1], num(A[i + 2])
      wanted[l] = A[i]
      i = i + 3
    end
    local w = m
    if k == balance then wanted[m + 1], wanted[m + 2], w = 'credits', 'refilledAt', m + 2 end
    local got = call('HMGET', name, unpack(wanted, 1, w))
    for l = 1, m do used[n + l], starts[n + l] = countOf(name, fields[n + l], starts[n + l], got[l]) end
    if k == balance then remaining, refilledAt = num(got[m + 1] or '0'), num(got[m + 2] or '0') end
    n = n + m
    ends[k] = n
  end
  if balance > 0 then
    local refillAmount, refillStart = num(A[i]), num(A[i + 1])
    i = i + 2
    if refillAmount > 0 and refilledAt < refillStart then
      remaining, refilledAt, refilled = refillAmount, refillStart, true
    end
  end
  local refusal = 0
  if mode == 's' then
    for l = 1, n do
      if used[l] + amount > limits[l] then refusal = l break end
    end
    if refusal == 0 and balance > 0 and remaining < amount then refusal = -1 end
  end
  local spends = refusal == 0 and (mode == 's' or mode == 'a') and amount ~= 0
  if spends then
    for l = 1, n do used[l] = max(0, used[l] + amount) end
    if balance > 0 then remaining = max(0, remaining - amount) end
  end
  local from = 1
  for k = 1, h do
    local w = 0
    if spends then
      for l = from, ends[k] do
        writes[w + 1], writes[w + 2] = fields[l], starts[l] .. ':' .. used[l]
        w = w + 2
      end
    end
    if k == balance and (refilled or spends) then
      writes[w + 1], writes[w + 2], writes[w + 3], writes[w + 4] = 'credits', remaining, 'refilledAt', refilledAt
      w = w + 4
    end
    if w > 0 then call('HSET', names[k], unpack(writes, 1, w)) end
    from = ends[k] + 1
  end
  out[o + 1], out[o + 2], out[o + 3] = refusal, remaining, refilledAt
  o = o + 3
  for l = 1, n do out[o + l] = used[l] end
  o = o + n
end
return out
`;

/** BUDGET_BATCH outside a Cluster: every name in ARGV too (KEYS holds the first, as on a Cluster). */
const BUDGET_BATCH = BUDGET_BATCH_BODY;

/** BUDGET_BATCH on a Cluster: one call per master, the names of its slots in ARGV (see CALL_BATCH_CROSS_SLOT). */
const BUDGET_BATCH_CROSS_SLOT = `#!lua flags=allow-cross-slot-keys
${BUDGET_BATCH_BODY}`;

/**
 * KEYS: the flush marker, then per row its day hash and that day's subject index (one slot group).
 * ARGV: retention in seconds, the marker's TTL, then per row: subject, outcome, calls, cost. Adds
 * each row to its day (`<outcome>` calls, `<outcome>:cost`); returns 0 without writing when the
 * marker is set (a retried flush).
 */
const BUDGET_USAGE = `
if not redis.call('SET', KEYS[1], 1, 'NX', 'EX', ARGV[2]) then return 0 end
for i = 0, (#KEYS - 1) / 2 - 1 do
  local day, index = KEYS[2 + i * 2], KEYS[3 + i * 2]
  local a = 3 + i * 4
  redis.call('HINCRBY', day, ARGV[a + 1], ARGV[a + 2])
  redis.call('HINCRBY', day, ARGV[a + 1] .. ':cost', ARGV[a + 3])
  redis.call('EXPIRE', day, ARGV[1])
  redis.call('SADD', index, ARGV[a])
  redis.call('EXPIRE', index, ARGV[1])
end
return 1
`;

// KEYS[1] = flush marker, KEYS[2..] = bucket hashes; ARGV[1] = the marker's TTL, then per hash:
// field, calls, cost, expire-at (unix seconds).
const CALL_BUCKETS = `
if not redis.call('SET', KEYS[1], 1, 'NX', 'EX', ARGV[1]) then return 0 end
for i = 2, #KEYS do
  local a = 2 + (i - 2) * 4
  redis.call('HINCRBY', KEYS[i], ARGV[a], ARGV[a + 1])
  if ARGV[a + 2] ~= '0' then redis.call('HINCRBY', KEYS[i], ARGV[a] .. '|c', ARGV[a + 2]) end
  redis.call('EXPIREAT', KEYS[i], ARGV[a + 3])
end
return 1
`;

const SCRIPTS = {
  budgetUsage: BUDGET_USAGE,
  callBuckets: CALL_BUCKETS,
  budgetBatch: BUDGET_BATCH,
  budgetBatchCrossSlot: BUDGET_BATCH_CROSS_SLOT,
  callBatch: CALL_BATCH,
  callBatchCrossSlot: CALL_BATCH_CROSS_SLOT,
  commitChange: COMMIT_CHANGE,
  recordUsage: RECORD_USAGE,
  scanPage: SCAN_PAGE,
  findByLookup: FIND_BY_LOOKUP,
  setSecretTag: SET_SECRET_TAG,
  indexSweepKey: INDEX_SWEEP_KEY,
  appendLogs: APPEND_LOGS,
  pruneLogs: PRUNE_LOGS,
  pruneUsage: PRUNE_USAGE,
  createAdmin: CREATE_ADMIN,
  touchAdminSession: TOUCH_ADMIN_SESSION,
  countLoginFailure: COUNT_LOGIN_FAILURE,
  readLoginFailures: READ_LOGIN_FAILURES,
  swapIdempotency: SWAP_IDEMPOTENCY,
  markIdempotencyTarget: MARK_IDEMPOTENCY_TARGET,
  ...BUDGET_SCRIPTS,
};

/** Runs a script: `(numberOfKeys, ...keys, ...args)`. */
export type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

export type RedisScripts = Record<keyof typeof SCRIPTS, ScriptRunner>;

/**
 * Registers every script on the client (as `keygate<Name>` commands) and returns callers for them.
 * A Cluster client sends them outside its auto-pipelines: those group commands by their first
 * argument (for a script, the key count) and refuse a command whose keys span slots.
 */
export function defineScripts(client: RedisClient): RedisScripts {
  const entries = Object.entries(SCRIPTS).map(([name, lua]) => {
    const command = `keygate${name[0]!.toUpperCase()}${name.slice(1)}`;
    client.defineCommand(command, { lua });
    if (client.isCluster) {
      const options = client.options as { autoPipeliningIgnoredCommands?: string[] };
      options.autoPipeliningIgnoredCommands = [...(options.autoPipeliningIgnoredCommands ?? []), command];
    }
    const run = (client as unknown as Record<string, ScriptRunner | undefined>)[command];
    if (!run) throw new Error(`script ${command} was not defined`);
    return [name, (...args: (string | number)[]) => run.apply(client, args)] as const;
  });
  return Object.fromEntries(entries) as RedisScripts;
}
