-- Renews a channel lease only if this holder still owns it (it may have expired and been taken by another gateway).
-- KEYS[1] presence key   ARGV[1] holder token   ARGV[2] ttl in ms
-- Returns 1 when renewed, 0 when the lease is gone or someone else's.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
