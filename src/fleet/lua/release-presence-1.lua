-- Releases a channel presence key only if this holder still owns it (another gateway may have taken the channel).
-- KEYS[1] presence key   ARGV[1] holder id
-- Returns 1 when deleted, 0 otherwise.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
