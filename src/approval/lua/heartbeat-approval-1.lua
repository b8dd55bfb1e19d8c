-- Refresh a pending approval's waiter heartbeat with Redis TIME (approvals.md §10 lifecycle 3).
-- KEYS[1] record hash. Returns 1 when refreshed, 0 when the record is gone or no longer pending.
if redis.call('HGET', KEYS[1], 'status') ~= 'pending' then return 0 end
local t = redis.call('TIME')
redis.call('HSET', KEYS[1], 'waiter_heartbeat_at', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
return 1
