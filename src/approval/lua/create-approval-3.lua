-- Write a pending approval and its reply-token index (approvals.md §10 lifecycle 1), stamped with Redis TIME.
-- KEYS[1] record hash, KEYS[2] token index, KEYS[3] pending ids (sorted set)
-- ARGV[1] wait ms (expires_at - created_at), ARGV[2] ms the record outlives its expiry, ARGV[3] approval id,
-- ARGV[4] dashboard pub/sub channel, ARGV[5] its change message, ARGV[6..] field/value pairs (status raw, the rest JSON)
-- Returns {0} when the token is already indexed for this chat (draw another), else {1, created_at, expires_at}.
if redis.call('EXISTS', KEYS[2]) == 1 then return {0} end
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('approval id already exists') end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expires = now + tonumber(ARGV[1])
local ttl = tonumber(ARGV[1]) + tonumber(ARGV[2])
for i = 6, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('HSET', KEYS[1], 'created_at', now, 'expires_at', expires, 'waiter_heartbeat_at', now)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('SET', KEYS[2], ARGV[3], 'PX', ttl)
redis.call('ZADD', KEYS[3], now, ARGV[3])
redis.call('PUBLISH', ARGV[4], ARGV[5])
return {1, now, expires}
