-- Add one request's spend to every ledger total it belongs to, together (concurrent workers never see a
-- half-applied request), and return the new shared totals. A shared total at or past its warn_at_percent
-- threshold sets that period's warned marker (NX), so exactly one caller in the fleet logs the crossing.
-- KEYS[1] shared day total, KEYS[2] shared month total, KEYS[3] day token counts (hash),
-- KEYS[4] day warned marker, KEYS[5] month warned marker,
-- KEYS[6..] (per-agent tracking only) the alias's day total, then each bounded ancestor's descendant total
-- ARGV[1] micro-dollars, ARGV[2] day ttl, ARGV[3] month ttl, ARGV[4] alias, ARGV[5] input tokens,
-- ARGV[6] output tokens, ARGV[7] day warn threshold, ARGV[8] month warn threshold (-1: none),
-- ARGV[9] ms to the end of the day, ARGV[10] ms to the end of the month
-- Returns { day total, month total, day warned now (0/1), month warned now (0/1) }.
local usd = tonumber(ARGV[1])
local day = redis.call('INCRBY', KEYS[1], usd)
redis.call('EXPIRE', KEYS[1], ARGV[2])
local month = redis.call('INCRBY', KEYS[2], usd)
redis.call('EXPIRE', KEYS[2], ARGV[3])
for i = 6, #KEYS do
  redis.call('INCRBY', KEYS[i], usd)
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
local input, output = tonumber(ARGV[5]), tonumber(ARGV[6])
if input > 0 or output > 0 then
  redis.call('HINCRBY', KEYS[3], ARGV[4] .. ':input', input)
  redis.call('HINCRBY', KEYS[3], ARGV[4] .. ':output', output)
  redis.call('EXPIRE', KEYS[3], ARGV[2])
end
local function crossed(total, threshold, marker, ms)
  local t = tonumber(threshold)
  if t < 0 or total < t then return 0 end
  if redis.call('SET', marker, '1', 'NX', 'PX', ms) then return 1 end
  return 0
end
return { day, month, crossed(day, ARGV[7], KEYS[4], ARGV[9]), crossed(month, ARGV[8], KEYS[5], ARGV[10]) }
