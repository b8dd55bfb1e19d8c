--[[
  Reserve one secret attempt against every given counter at once (web login: address and user; bearer: address).

  KEYS[1..n]    failure counters (one hash tag, so this runs on one slot of a Cluster)
  ARGV[1]       window in seconds (each reservation extends it)
  ARGV[2..n+1]  attempts allowed in the window, per counter

  Returns 0 when every counter was under the limit: each is then incremented (the attempt is counted until the
  caller refunds it on success). Otherwise increments nothing and returns the seconds until the fullest one frees.
  Reserving before checking the secret is what makes parallel guesses count: a read-then-increment from Node let
  a burst of simultaneous tries all pass the read.
]]
local window = tonumber(ARGV[1])
local wait = 0
for i = 1, #KEYS do
  if (tonumber(redis.call('GET', KEYS[i])) or 0) >= tonumber(ARGV[i + 1]) then
    local ttl = redis.call('TTL', KEYS[i])
    if ttl < 1 then ttl = window end
    if ttl > wait then wait = ttl end
  end
end
if wait > 0 then
  return wait
end
for i = 1, #KEYS do
  redis.call('INCR', KEYS[i])
  redis.call('EXPIRE', KEYS[i], window)
end
return 0
