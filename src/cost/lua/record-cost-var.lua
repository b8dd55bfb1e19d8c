-- Add one request's spend to every ledger total it belongs to, together (concurrent workers never see a
-- half-applied request), and return the new shared totals. A shared total at or past its warn_at_percent
-- threshold sets that period's warned marker (NX), so exactly one caller in the fleet logs the crossing.
-- KEYS[1] shared day total, KEYS[2] shared month total, KEYS[3] day token counts (hash),
-- KEYS[4] day warned marker, KEYS[5] month warned marker,
-- KEYS[6..] (per-agent tracking only) the alias's day total, then each bounded ancestor's descendant total
-- ARGV[1] micro-dollars, ARGV[2] day ttl, ARGV[3] month ttl, ARGV[4] alias, ARGV[5] input tokens,
-- ARGV[6] output tokens, ARGV[7] day warn threshold, ARGV[8] month warn threshold (-1: none),
-- ARGV[9] ms to the end of the day, ARGV[10] ms to the end of the month
-- Returns { day total, month total, day warned now (0/1), month warned now (0/1), unreadable keys... }
-- (a total whose key is listed as unreadable is returned as 0).
-- A counter that is not an integer is left as it is: INCRBY refuses it without a change (pcall, so the other
-- totals are still added), and resetting it would forget spend. Every check that reads it refuses
-- (reserve-cost-var.lua fails closed), so leaving it costs no limit. Only this script and the reserve script
-- create the counters, each with its TTL, so the TTL is set when INCRBY created the key (the total is the
-- amount added), not on every request.
local usd = tonumber(ARGV[1])
local bad = {}
-- A request that cost nothing (an unpriced model) adds nothing: its totals are read, no counter is created.
local function add(k, ttl)
  if usd == 0 then
    local v = redis.pcall('GET', k)
    if v == false then return 0 end
    if type(v) ~= 'string' or not string.match(v, '^%-?%d+$') then
      bad[#bad + 1] = k
      return nil
    end
    return tonumber(v)
  end
  local total = redis.pcall('INCRBY', k, usd)
  if type(total) ~= 'number' then
    bad[#bad + 1] = k
    return nil
  end
  if total == usd then redis.call('EXPIRE', k, ttl) end
  return total
end
local day = add(KEYS[1], ARGV[2])
local month = add(KEYS[2], ARGV[3])
for i = 6, #KEYS do add(KEYS[i], ARGV[2]) end
local input, output = tonumber(ARGV[5]), tonumber(ARGV[6])
if input > 0 or output > 0 then
  local a = redis.pcall('HINCRBY', KEYS[3], ARGV[4] .. ':input', input)
  local b = redis.pcall('HINCRBY', KEYS[3], ARGV[4] .. ':output', output)
  if type(a) == 'table' or type(b) == 'table' then bad[#bad + 1] = KEYS[3] end
  if a == input or b == output then redis.pcall('EXPIRE', KEYS[3], ARGV[2]) end
end
local function crossed(total, threshold, marker, ms)
  local t = tonumber(threshold)
  if total == nil or t < 0 or total < t then return 0 end
  if redis.call('SET', marker, '1', 'NX', 'PX', ms) then return 1 end
  return 0
end
local out = { day or 0, month or 0, crossed(day, ARGV[7], KEYS[4], ARGV[9]), crossed(month, ARGV[8], KEYS[5], ARGV[10]) }
for _, k in ipairs(bad) do out[#out + 1] = k end
return out
