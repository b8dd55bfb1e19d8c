-- Append one turn's messages to a session history exactly once (a redelivered turn appends nothing), and note
-- the session's last activity in the session index (the dashboard's list, so it never scans keys).
-- KEYS[1] history list, KEYS[2] set of turn ids already applied, KEYS[3] session index (sorted set)
-- ARGV[1] turn id, ARGV[2] ttl seconds, ARGV[3] max stored messages, ARGV[4] session index member,
-- ARGV[5..] JSON messages
-- Returns 1 when appended, 0 when this turn was already applied.
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
for i = 5, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('EXPIRE', KEYS[1], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[2])
-- Millisecond scores built as strings: Lua's number formatting would round them.
local t = redis.call('TIME')
redis.call('ZADD', KEYS[3], t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)), ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', '(' .. ((tonumber(t[1]) - tonumber(ARGV[2])) * 1000))
return 1
