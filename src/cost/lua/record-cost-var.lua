-- Add one request's spend to every ledger total it belongs to, together (concurrent workers never see a
-- half-applied request), and return the new shared totals.
-- KEYS[1] shared day total, KEYS[2] shared month total, KEYS[3] day token counts (hash),
-- KEYS[4..] (per-agent tracking only) the alias's day total, then each bounded ancestor's descendant total
-- ARGV[1] micro-dollars, ARGV[2] day ttl, ARGV[3] month ttl, ARGV[4] alias, ARGV[5] input tokens,
-- ARGV[6] output tokens
-- Returns { day total, month total }.
local usd = tonumber(ARGV[1])
local day = redis.call('INCRBY', KEYS[1], usd)
redis.call('EXPIRE', KEYS[1], ARGV[2])
local month = redis.call('INCRBY', KEYS[2], usd)
redis.call('EXPIRE', KEYS[2], ARGV[3])
for i = 4, #KEYS do
  redis.call('INCRBY', KEYS[i], usd)
  redis.call('EXPIRE', KEYS[i], ARGV[2])
end
local input, output = tonumber(ARGV[5]), tonumber(ARGV[6])
if input > 0 or output > 0 then
  redis.call('HINCRBY', KEYS[3], ARGV[4] .. ':input', input)
  redis.call('HINCRBY', KEYS[3], ARGV[4] .. ':output', output)
  redis.call('EXPIRE', KEYS[3], ARGV[2])
end
return { day, month }
