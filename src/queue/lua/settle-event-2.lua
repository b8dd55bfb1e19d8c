-- Remove a conversation's head event after its turn is settled (reply queued), only if it is still the head.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events
-- ARGV[1] event id, ARGV[2] conversation id
-- Returns the number of events left in the inbox.
local head = redis.call('LINDEX', KEYS[1], 0)
if head and cjson.decode(head).eventId == ARGV[1] then redis.call('LPOP', KEYS[1]) end
local left = redis.call('LLEN', KEYS[1])
if left == 0 then redis.call('SREM', KEYS[2], ARGV[2]) end
return left
