-- Reserve one execution-tree slot when at least ARGV[1] slots remain.
-- KEYS[1] budget counter
-- ARGV[1] minimum remaining required (2 for a child or a normal root iteration)
-- Returns the count before the reservation, -1 when too few remain, -2 when the counter does not exist.
local v = redis.call('GET', KEYS[1])
if not v then return -2 end
local n = tonumber(v)
-- A counter that is not a number (damaged) fails closed: the tree has no slot left, and DECR would fail.
if n == nil then return -1 end
if n >= tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return n
end
return -1
