-- Accept an inbound event once: dedupe by platform event id, then append it to its conversation inbox.
-- KEYS[1] dedupe key, KEYS[2] conversation inbox list, KEYS[3] set of conversations with pending events
-- ARGV[1] dedupe ttl seconds, ARGV[2] event JSON, ARGV[3] conversation id
-- Returns 1 when accepted, 0 when the event was already seen.
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) == false then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[3])
return 1
