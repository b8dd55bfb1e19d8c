-- Settle a delegate task: compare-and-set from `running`, leave the in-flight set, announce the change.
-- KEYS[1] task record hash, KEYS[2] in-flight set
-- ARGV[1] terminal status, ARGV[2] ttl seconds, ARGV[3] pub/sub channel, ARGV[4] task id,
-- ARGV[5] dashboard pub/sub channel, ARGV[6] its change message, ARGV[7..] field/value pairs
-- Returns 1 when this call settled the task; 0 when it was no longer running (the first terminal status won).
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('SREM', KEYS[2], ARGV[4])
redis.call('PUBLISH', ARGV[3], ARGV[4])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
