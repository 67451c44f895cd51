import { MAX_BUDGET_AMOUNT } from '@keygate/contracts/gateway';
import { SETTLE_LUA } from './settle-lua.ts';

/**
 * The Lua scripts behind plans and identities (see budget-config.ts for their callers). Like the
 * others (scripts.ts) each checks everything before its first write, and publishes its change on
 * the invalidation channel itself, atomically with the write.
 */

/** JSON field → string or nil (cjson decodes null as a sentinel, not nil). */
const FIELD = `
local function field(json, name)
  if not json then return nil end
  local value = cjson.decode(json)[name]
  if type(value) ~= 'string' then return nil end
  return value
end
`;

/**
 * KEYS: plan hash, plans:all, the Idempotency-Key record's name. ARGV: expected version ('' =
 * create), new version, data JSON, lex member, channel, message, then the record's three (settle.ts).
 * Returns 1, or 0 when the version (or existence) or the record does not match.
 */
const PUT_PLAN = `${SETTLE_LUA}
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '' then
  if current then return 0 end
elseif current ~= ARGV[1] then
  return 0
end
if not settleHolds(KEYS[3], ARGV[7]) then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[3], 'version', ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[4])
settleWrite(KEYS[3], ARGV[7], ARGV[8], ARGV[9])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
`;

/**
 * KEYS: plan hash, plans:all, then sets that must be empty (the plan's users in this slot).
 * ARGV: plan id, channel, message. Returns 'missing', 'in_use' or 'deleted'.
 */
const DELETE_PLAN = `${FIELD}
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return 'missing' end
for i = 3, #KEYS do
  if redis.call('SCARD', KEYS[i]) > 0 then return 'in_use' end
end
redis.call('ZREM', KEYS[2], field(data, 'createdAt') .. ' ' .. ARGV[1])
redis.call('DEL', KEYS[1])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 'deleted'
`;

/**
 * KEYS: identities:external, identities:all, identities:env:<e>. ARGV: `<env> <externalId>`, id,
 * lex member. Claims the external id for the identity and lists it; 0 when another holds it.
 */
const CLAIM_IDENTITY = `
local holder = redis.call('HGET', KEYS[1], ARGV[1])
if holder and holder ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], 0, ARGV[3])
redis.call('ZADD', KEYS[3], 0, ARGV[3])
return 1
`;

/** Same KEYS and ARGV as CLAIM_IDENTITY: releases the claim (if still the identity's) and unlists it. */
const RELEASE_IDENTITY = `
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('ZREM', KEYS[2], ARGV[3])
redis.call('ZREM', KEYS[3], ARGV[3])
return 1
`;

/**
 * KEYS: identity hash, its budget hash, the Idempotency-Key record's name. ARGV: expected version
 * ('' = create), new version, data JSON, environment, externalId, identity id, starting credits
 * ('' = none), their refill time (ms), channel, message, '1' to check that a plan newly named exists
 * (outside a Cluster, where the plan shares the prefix), then the record's three (settle.ts). Moves the identity between the `plan:<id>:identities` sets of its group (names
 * sharing KEYS[1]'s prefix). Returns 1, or 0 when the version (or existence) does not match.
 */
const PUT_IDENTITY = `${FIELD}${SETTLE_LUA}
local current = redis.call('HGET', KEYS[1], 'version')
if ARGV[1] == '' then
  if current then return 0 end
elseif current ~= ARGV[1] then
  return 0
end
if not settleHolds(KEYS[3], ARGV[12]) then return 0 end
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[6] - 9)
local oldPlan = field(redis.call('HGET', KEYS[1], 'data'), 'planId')
local newPlan = field(ARGV[3], 'planId')
if ARGV[11] == '1' and newPlan and newPlan ~= oldPlan and redis.call('EXISTS', prefix .. 'plan:' .. newPlan) == 0 then
  return 0
end
if oldPlan then redis.call('SREM', prefix .. 'plan:' .. oldPlan .. ':identities', ARGV[6]) end
if newPlan then redis.call('SADD', prefix .. 'plan:' .. newPlan .. ':identities', ARGV[6]) end
redis.call('HSET', KEYS[1], 'data', ARGV[3], 'version', ARGV[2], 'environment', ARGV[4], 'externalId', ARGV[5])
if ARGV[1] == '' and ARGV[7] ~= '' then
  redis.call('HSET', KEYS[2], 'credits', ARGV[7], 'refilledAt', ARGV[8])
end
settleWrite(KEYS[3], ARGV[12], ARGV[13], ARGV[14])
redis.call('PUBLISH', ARGV[9], ARGV[10])
return 1
`;

/**
 * KEYS: identity hash, its budget hash, then sets that must be empty (its keys in this slot).
 * ARGV: identity id, channel, message. Returns {'missing'}, {'in_use'} or {'deleted', data JSON}.
 */
const DELETE_IDENTITY = `${FIELD}
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return { 'missing' } end
for i = 3, #KEYS do
  if redis.call('SCARD', KEYS[i]) > 0 then return { 'in_use' } end
end
local prefix = string.sub(KEYS[1], 1, #KEYS[1] - #ARGV[1] - 9)
local plan = field(data, 'planId')
if plan then redis.call('SREM', prefix .. 'plan:' .. plan .. ':identities', ARGV[1]) end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return { 'deleted', data }
`;

/**
 * KEYS: the balance hash, the operation's marker (KEYS[1] again when the operation carries no id).
 * ARGV: refill amount, refill instant due (ms), `set`|`inc`|`dec`, amount, until when the marker
 * holds (ms, '0' = no marker), now (ms; the gateway's clock, as for the counters). Refills the
 * balance if due, applies the operation (never below zero nor above the largest amount) and answers
 * {remaining, refilledAt}; with a marker that still holds it changes nothing and answers what the
 * marked operation left.
 */
const CHANGE_CREDITS = `
local marked = ARGV[5] ~= '0'
if marked then
  local done = redis.call('GET', KEYS[2])
  if done then
    local remaining, refilledAt, expiresAt = string.match(done, '^(%d+):(%d+):(%d+)$')
    if tonumber(expiresAt) > tonumber(ARGV[6]) then return { tonumber(remaining), tonumber(refilledAt) } end
  end
end
local state = redis.call('HMGET', KEYS[1], 'credits', 'refilledAt')
local remaining, refilledAt = tonumber(state[1] or '0'), tonumber(state[2] or '0')
local refillAmount, refillStart, amount = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
if refillAmount > 0 and refilledAt < refillStart then remaining, refilledAt = refillAmount, refillStart end
if ARGV[3] == 'set' then remaining = amount
elseif ARGV[3] == 'inc' then remaining = math.min(${MAX_BUDGET_AMOUNT}, remaining + amount)
else remaining = math.max(0, remaining - amount) end
redis.call('HSET', KEYS[1], 'credits', remaining, 'refilledAt', refilledAt)
if marked then
  redis.call('SET', KEYS[2], string.format('%.0f:%.0f:%s', remaining, refilledAt, ARGV[5]), 'PXAT', ARGV[5])
end
return { remaining, refilledAt }
`;

export const BUDGET_SCRIPTS = {
  changeCredits: CHANGE_CREDITS,
  putPlan: PUT_PLAN,
  deletePlan: DELETE_PLAN,
  claimIdentity: CLAIM_IDENTITY,
  releaseIdentity: RELEASE_IDENTITY,
  putIdentity: PUT_IDENTITY,
  deleteIdentity: DELETE_IDENTITY,
};
