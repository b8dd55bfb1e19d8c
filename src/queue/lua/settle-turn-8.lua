-- Commit a finished turn in one step: its history, its reply, and the removal of its event from the inbox.
-- A crash before this re-runs the turn; after it, nothing is left to do. Each part is idempotent, so a
-- re-run that reaches here again (a stalled job) changes nothing twice. The turn's running mark (read by
-- the abort API) is cleared in the same step.
-- KEYS[1] conversation inbox list, KEYS[2] set of conversations with pending events,
-- KEYS[3] reply idempotency key, KEYS[4] channel outbox stream, KEYS[5] running-turns hash,
-- KEYS[6] session history list, KEYS[7] set of turn ids already in that history,
-- KEYS[8] session index (sorted set: session member → last activity ms, read by the dashboard)
-- ARGV[1] event id, ARGV[2] conversation id, ARGV[3] idempotency ttl seconds,
-- ARGV[4] recipient JSON, ARGV[5] reply text, ARGV[6] reply sequence, ARGV[7] this turn's id,
-- ARGV[8] history ttl seconds, ARGV[9] max stored history messages, ARGV[10] session index member,
-- ARGV[11..] history messages (JSON)
-- Returns { events left, the new head event JSON or '' }.
if #ARGV > 10 and redis.call('SADD', KEYS[7], ARGV[7]) == 1 then
  for i = 11, #ARGV do redis.call('RPUSH', KEYS[6], ARGV[i]) end
  redis.call('LTRIM', KEYS[6], -tonumber(ARGV[9]), -1)
  redis.call('EXPIRE', KEYS[6], ARGV[8])
  redis.call('EXPIRE', KEYS[7], ARGV[8])
  -- Millisecond scores built as strings: Lua's number formatting would round them.
  local t = redis.call('TIME')
  redis.call('ZADD', KEYS[8], t[1] .. string.format('%03d', math.floor(tonumber(t[2]) / 1000)), ARGV[10])
  -- Sessions whose history expired leave the index (cheap: only the expired tail is touched).
  redis.call('ZREMRANGEBYSCORE', KEYS[8], '-inf', '(' .. ((tonumber(t[1]) - tonumber(ARGV[8])) * 1000))
end
if redis.call('SET', KEYS[3], '1', 'NX', 'EX', ARGV[3]) then
  redis.call('XADD', KEYS[4], '*', 'to', ARGV[4], 'text', ARGV[5], 'conv', ARGV[2], 'seq', ARGV[6])
end
-- Stored records are decoded under pcall: an unreadable one must not fail the script after the history and
-- the reply above were written. An unreadable head is not this turn's event (the inbox drops it on its own);
-- an unreadable running mark can belong to no other run (one turn of a conversation runs at a time): cleared.
-- A head cjson cannot decode (JSON.stringify's \ud800 for a lone surrogate) is still this turn's event when its
-- eventId says so (JSON.stringify writes no spaces; a quote inside a string value is always escaped).
local function isEvent(raw)
  local ok, v = pcall(cjson.decode, raw)
  if ok then return type(v) == 'table' and v.eventId == ARGV[1] end
  local id = string.gsub(cjson.encode(ARGV[1]), '\\/', '/')
  return string.find(raw, '"eventId":' .. id, 1, true) ~= nil
end
local head = redis.call('LINDEX', KEYS[1], 0)
if head and isEvent(head) then redis.call('LPOP', KEYS[1]) end
local mark = redis.call('HGET', KEYS[5], ARGV[2])
if mark then
  local ok, v = pcall(cjson.decode, mark)
  if not ok or type(v) ~= 'table' or v.runId == ARGV[7] then redis.call('HDEL', KEYS[5], ARGV[2]) end
end
local left = redis.call('LLEN', KEYS[1])
if left == 0 then
  redis.call('SREM', KEYS[2], ARGV[2])
  return { 0, '' }
end
return { left, redis.call('LINDEX', KEYS[1], 0) }
