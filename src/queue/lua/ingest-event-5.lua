-- Accept an inbound event once: dedupe by platform event id, number it in its conversation, append it.
-- KEYS[1] dedupe key, KEYS[2] conversation inbox list, KEYS[3] set of conversations with pending events,
-- KEYS[4] conversation sequence counter, KEYS[5] last reply sequence sent for the conversation
-- ARGV[1] dedupe ttl seconds, ARGV[2] event JSON (an object), ARGV[3] conversation id, ARGV[4] sequence ttl seconds
-- Returns 0 when the event was already seen, else the inbox length after the append (1: the inbox was
-- empty, so the conversation needs a drain job; more: the drain job in charge will reach it).
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) == false then return 0 end
local seq = redis.call('INCR', KEYS[4])
redis.call('EXPIRE', KEYS[4], ARGV[4])
-- The reply order starts here: nothing of this conversation has been sent before sequence 1.
redis.call('SET', KEYS[5], seq - 1, 'NX', 'EX', ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
local event = cjson.decode(ARGV[2])
event['seq'] = seq
local length = redis.call('RPUSH', KEYS[2], cjson.encode(event))
redis.call('SADD', KEYS[3], ARGV[3])
return length
