-- Drop a conversation's head event that cannot be read (it would stop the conversation for good),
-- only if it is still that exact value.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events
-- ARGV[1] the unreadable head as stored, ARGV[2] conversation id
-- Returns the new head, or false when the inbox is empty.
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) end
if redis.call('LLEN', KEYS[1]) == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return false
end
return redis.call('LINDEX', KEYS[1], 0)
