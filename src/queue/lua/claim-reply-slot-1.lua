-- Decide whether reply `seq` of a conversation may be sent now (replies leave in conversation order).
-- KEYS[1] last reply sequence sent for the conversation
-- ARGV[1] reply sequence
-- Returns 1 to send now, 0 when already sent (a redelivery), -1 when an earlier reply is still unsent.
local last = tonumber(redis.call('GET', KEYS[1]) or '0')
local seq = tonumber(ARGV[1])
if seq <= last then return 0 end
if seq > last + 1 then return -1 end
return 1
