-- Append one turn's messages to a session history exactly once (see the fragment).
-- KEYS[1] history list, KEYS[2] set of turn ids already applied, KEYS[3] session index (sorted set)
-- ARGV[1] turn id, ARGV[2] ttl seconds, ARGV[3] max stored messages, ARGV[4] session index member,
-- ARGV[5] dashboard pub/sub channel, ARGV[6] its change message, ARGV[7..] JSON messages
-- Returns 1 when appended, 0 when this turn was already applied.
--!include history-append.fragment.lua
local appended = history_append(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2], ARGV[3], ARGV[4], 7)
if appended == 1 then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return appended
