-- Fragment (included, never run alone): append one turn's messages (ARGV[first..]) to a session history exactly
-- once (a redelivered turn appends nothing), and note the session's last activity in the session index (the
-- dashboard's list, so it never scans keys). Returns 1 when appended, 0 when the turn was already applied.
local function history_append(list, turns, index, turn_id, ttl, max_stored, member, first)
  if redis.call('SADD', turns, turn_id) == 0 then return 0 end
  for i = first, #ARGV do redis.call('RPUSH', list, ARGV[i]) end
  redis.call('LTRIM', list, -tonumber(max_stored), -1)
  redis.call('EXPIRE', list, ttl)
  redis.call('EXPIRE', turns, ttl)
  -- Millisecond scores built as strings: Lua's number formatting would round them.
  local t = redis.call('TIME')
  redis.call('ZADD', index, t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)), member)
  -- Sessions whose history expired leave the index (cheap: only the expired tail is touched).
  redis.call('ZREMRANGEBYSCORE', index, '-inf', '(' .. ((tonumber(t[1]) - tonumber(ttl)) * 1000))
  return 1
end
