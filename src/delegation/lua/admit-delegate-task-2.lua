-- Admit one background delegation: capacity check, in-flight entry and the running record in one step.
-- KEYS[1] task record hash, KEYS[2] in-flight set of running delegate task ids
-- ARGV[1] task id, ARGV[2] in-flight limit, ARGV[3] record ttl seconds, ARGV[4] status,
-- ARGV[5] dashboard pub/sub channel, ARGV[6] its change message, ARGV[7..] field/value pairs
-- Returns 1 when admitted, 0 when the in-flight set is at the limit.
if redis.call('SCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], 'status', ARGV[4])
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('PUBLISH', ARGV[5], ARGV[6])
return 1
