-- The root's last slot: take it only when exactly one remains.
-- KEYS[1] budget counter
-- Returns 1 when taken, 0 otherwise.
local v = redis.call('GET', KEYS[1])
if v and tonumber(v) == 1 then
  redis.call('SET', KEYS[1], 0, 'KEEPTTL')
  return 1
end
return 0
