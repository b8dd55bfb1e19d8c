-- A reply has left (or was given up on): drop it from the outbox stream and, when ordered, let the next leave.
-- KEYS[1] channel outbox stream, KEYS[2] (ordered replies only) last reply sequence sent in the conversation
-- ARGV[1] consumer group, ARGV[2] entry id, ARGV[3] sequence, ARGV[4] ttl seconds
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
if KEYS[2] then
  local last = tonumber(redis.call('GET', KEYS[2]) or '0')
  if tonumber(ARGV[3]) > last then redis.call('SET', KEYS[2], ARGV[3], 'EX', ARGV[4]) end
end
return 1
