-- Note a message refused because no peer group admits its sender: the dashboard's list of recently refused
-- senders, and whether this is the first refusal of this sender on this channel within the log gate's ttl
-- (across the fleet: every gateway runs this, only the first one logs).
-- KEYS[1] log gate key (one per channel and sender), KEYS[2] sorted set (member -> last refusal ms),
-- KEYS[3] hash (member -> record JSON)
-- ARGV[1] log gate ttl seconds, ARGV[2] member, ARGV[3] record JSON, ARGV[4] most members kept,
-- ARGV[5] max age ms, ARGV[6] dashboard pub/sub channel, ARGV[7] its change message
-- Returns 1 when this refusal should be logged, else 0.
local first = redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) and 1 or 0
-- Millisecond scores built as strings: Lua's number formatting would round them.
local t = redis.call('TIME')
redis.call('ZADD', KEYS[2], t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)), ARGV[2])
redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
-- Bounded: members older than the max age, then the oldest beyond the count, leave both structures.
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', '(' .. (tonumber(t[1]) * 1000 - tonumber(ARGV[5])))
for _, m in ipairs(redis.call('ZRANGE', KEYS[2], 0, -(tonumber(ARGV[4]) + 1))) do table.insert(gone, m) end
for _, m in ipairs(gone) do
  redis.call('ZREM', KEYS[2], m)
  redis.call('HDEL', KEYS[3], m)
end
redis.call('PUBLISH', ARGV[6], ARGV[7])
return first
