-- Update fields of a task record only while it is still `running` (progress, owner, heartbeat).
-- KEYS[1] task record hash
-- ARGV[1] dashboard pub/sub channel, ARGV[2] its change message, ARGV[3..] field/value pairs
-- Returns 1 when updated, 0 when the task is not running (a late write must not touch a settled record).
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1
