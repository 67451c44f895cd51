/* The Lua half of settle.ts, apart from it so the scripts that include it import nothing else. */

/** Lua: `settleHolds(name, expected)` and `settleWrite(name, expected, next, ttl)`. */
export const SETTLE_LUA = `
local function settleHolds(name, expected)
  return expected == '-' or (redis.call('GET', name) or '') == expected
end
local function settleWrite(name, expected, next, ttl)
  if expected ~= '-' then redis.call('SET', name, next, 'PX', ttl) end
end
`;
