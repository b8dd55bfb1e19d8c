-- Decide whether reply `seq` of a conversation may be sent now (replies leave in conversation order).
-- KEYS[1] last reply sequence sent for the conversation
-- ARGV[1] reply sequence
-- Returns 1 to send now, 0 when already sent (a redelivery), -1 when an earlier reply is still unsent,
-- 2 to send now because the mark is unreadable (damaged): the order it kept is lost, and waiting on it
-- would silence the conversation for good; acknowledging this reply writes a readable mark again.
local raw = redis.call('GET', KEYS[1]) or '0'
local last = string.match(raw, '^%d+$') and tonumber(raw) or nil
if last == nil then return 2 end
local seq = tonumber(ARGV[1])
if seq <= last then return 0 end
if seq > last + 1 then return -1 end
return 1
