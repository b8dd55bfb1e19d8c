--[[
  Check and record one action in a per-sender action bucket (delegate.md §8.2).

  KEYS[1]  bucket key: a sorted set of action timestamps (score = ms since epoch)
  ARGV[1]  now in ms, or "" to use the Redis server clock
  ARGV[2]  window in ms (one hour)
  ARGV[3]  limit (max actions per window; 0 or less always fails)
  ARGV[4]  member suffix, unique per call (so two actions in the same ms are two members)
  ARGV[5]  key TTL in ms (slightly over the window)

  Returns 1 when the action was recorded, 0 when the bucket is exhausted.
]]
local now = tonumber(ARGV[1])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - window))
if limit <= 0 then
  return 0
end
if redis.call('ZCARD', KEYS[1]) >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
