-- Move a task record from `running` to a terminal status; the first terminal status wins.
-- KEYS[1] task record hash
-- ARGV[1] terminal status, ARGV[2] ttl seconds for terminal records, ARGV[3..] field/value pairs (JSON values)
-- Returns 1 when this call settled the task, 0 when it was not running (or does not exist).
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1])
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
