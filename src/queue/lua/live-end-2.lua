-- Finish one live op: remember the message it posted, count it handled, free the slot.
-- KEYS[1] the turn's live state hash, KEYS[2] the slot's busy mark
-- ARGV[1] slot, ARGV[2] message ref JSON ('' keeps the slot's), ARGV[3] op number, ARGV[4] state ttl secs,
-- ARGV[5] '1' when this op held the busy mark (a skipped op never took it, and must not free another's)
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
local done = tonumber(redis.call('HGET', KEYS[1], 'done') or '0') or 0
if tonumber(ARGV[3]) > done then redis.call('HSET', KEYS[1], 'done', ARGV[3]) end
redis.call('EXPIRE', KEYS[1], ARGV[4])
if ARGV[5] == '1' then redis.call('DEL', KEYS[2]) end
return 1
