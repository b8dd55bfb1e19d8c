-- Record that reply `seq` was sent (or given up on), never moving the mark backwards.
-- KEYS[1] last reply sequence sent for the conversation
-- ARGV[1] reply sequence, ARGV[2] ttl seconds
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > last then redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2]) end
return 1
