-- Append one turn's messages to a session history exactly once (a redelivered turn appends nothing).
-- KEYS[1] history list, KEYS[2] set of turn ids already applied
-- ARGV[1] turn id, ARGV[2] ttl seconds, ARGV[3] max stored messages, ARGV[4..] JSON messages
-- Returns 1 when appended, 0 when this turn was already applied.
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
return 1
