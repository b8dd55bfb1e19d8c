-- Record where the prompt was posted, without recreating a record that has already expired away.
-- KEYS[1] record hash, ARGV[1] message_ref (JSON). Returns 1 when set, 0 when the record is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'message_ref', ARGV[1])
return 1
